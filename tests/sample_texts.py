"""Small crafted documents shared by the structure and chunking tests."""

KO_CONTRACT = """물품매매계약서

매도인 주식회사 하루상사(이하 "갑"이라 한다)와 매수인 주식회사 바다유통(이하 "을"이라 한다)은 다음과 같이 계약을 체결한다.

제1조(목적) 이 계약은 물품의 매매에 관한 사항을 정한다.
제2조 (정의)
① 이 계약에서 사용하는 용어의 뜻은 다음과 같다.
\t1. "물품"이란 부록B에 적힌 상품을 말한다.
\t2. "인도일"이란 제3조제2항에 따라 정한 날을 말한다.
\t\t가. 영업일 기준으로 한다.
\t\t나. 공휴일은 제외한다.
② 제1항에 정하지 아니한 용어는 상관례에 따른다.
제3조(인도)
① 갑은 물품을 을이 지정한 장소에 인도한다. 인도 장소의 변경은
제3조제2항에 따라 서면으로 한다.
② 인도일은 계약일로부터 10일 이내로 한다.
- 2 -
③ 같은 조 제2항의 기간은 합의로 연장할 수 있다.
제4조
삭제 <2005.3.31>
제5조(검수) 을은 인도일부터 7일 이내에 검수한다. 전조에 따른 인도가 늦어지면 검수 기간도 늦어진다.
제6조(대금)
  ① 대금은 검수 완료 후 30일 이내에 지급한다.
  ② 지급이 늦어지면 제7조제1항을 준용한다.
제7조 (위약금)
① 위약금은 계약금액의 10%로 한다.
② 위약금의 구체적인 산정 방법은 부록A 제2조에 따른다.
③ 세부 사항은 부록A 참조.
자주 묻는 질문 (FAQ)
Q. 인도가 늦으면?
A. 제7조를 보세요.
Q. 검수는 언제?
A. 7일 이내입니다.
부칙
제1조(시행일) 이 계약은 2024년 1월 1일부터 시행한다.
부록A (위약 책임 세칙)
제1조 (적용 범위) 이 부록은 본문 제7조의 위약금에 적용한다.
제2조 (위약금 산정)
① 지체 1일당 계약금액의 1천분의 1.5로 한다.
② 제1항의 상한은 10%로 한다.
부록B 물품 목록
제1조 (목록) 냉장고 10대.
"""


EN = """SUPPLY AGREEMENT

This Supply Agreement is made by and between ACME Ltd. ("Supplier") and Beta Inc. ("Buyer").

ARTICLE 1 DEFINITIONS
1.1 Products. "Products" means the goods described in Exhibit A, Section 2.
1.2 Delivery Date. The date agreed under Section 4.2 of the Agreement.
ARTICLE 4 DELIVERY
4.1 Delivery Terms. Supplier shall deliver DAP, subject to
Section 4.2 and the other terms hereof.
4.2 Late Delivery. Supplier shall pay liquidated damages as set forth in Schedule 1.
(a) the daily rate in paragraph 1.2 of Schedule 1; and
(b) the cap.
(i) first subitem;
(ii) second subitem.
SCHEDULE 1 - LIQUIDATED DAMAGES
1.1 Rate. One half percent per day.
1.2 Cap. Ten percent. See paragraph 1.1.
EXHIBIT A SPECIFICATIONS
1. Scope. All Products.
2. Tolerances. Plus or minus one percent.
"""


KO_TERMS = """하루마켓 이용약관

제1장 총칙

제 1 조 【목적】 이 약관은 하루마켓(이하 "회사"라 한다)이 제공하는 서비스의 이용 조건을 정한다.

제2조(정의) ① 이 약관에서 사용하는 용어의 뜻은 다음과 같다.
1) "회원"이란 회사와 이용계약을 체결한 자를 말한다.
2) "상품"이란 회사가 판매하는 재화를 말한다.
  가) 배송 상품
  나) 디지털 상품
② 제1항에서 정하지 않은 용어는 관계 법령에 따른다.

제2장 이용계약

제3조(이용계약의 성립) 이용계약은 회원의 신청과 회사의 승낙으로 성립한다. 다만, 회사는 다음 각 호의 어느 하나에 해당하는 신청은 승낙하지 아니할 수 있다.
1. 타인의 명의를 이용한 경우
2. 허위 정보를 기재한 경우
제4조(계약의 해지) ① 회원은 언제든지 해지를 요청할 수 있다.
② 회사는 제3조 각 호의 사유가 확인되면 계약을 해지할 수 있다.
③ 해지에 관한 세부 기준은 [별표 1]에 따른다.

부칙 <2023. 1. 1.>
이 약관은 2023년 1월 1일부터 시행한다.

[별표 1] 해지 기준표
1. 1회 위반: 경고
2. 2회 위반: 이용 정지 7일
"""
