/* jogak web page: the words of the page in Korean and English, and the Korean words for each error code.
   Loaded before app.js (window.jogak). */
"use strict";

(function () {
  const J = (window.jogak = window.jogak || {});

  J.T = {
    ko: {
      skip: "본문으로 건너뛰기", collection: "컬렉션", apiKey: "API 키", apiKeyHint: "키가 필요할 때만",
      apply: "적용", tabAsk: "질문", tabDocs: "문서", question: "질문",
      questionHint: "예: 단순 변심인데 반품 배송비 얼마예요?", ask: "질문하기", answer: "답변", sources: "근거",
      warnings: "참고", evidence: "근거 조항", openInDoc: "문서에서 보기",
      uploadLabel: "문서 올리기 (PDF, DOCX, HWP, HWPX, HTML, Markdown, 텍스트)", upload: "올리기", documents: "문서 목록",
      tree: "조항 구조", clause: "조항", thinking: "답변을 찾는 중…", noCollections: "컬렉션이 없습니다",
      needKey: "API 키가 필요합니다. 위의 입력란에 키를 넣고 ‘적용’을 누르세요.",
      unsupported: "일부 문장은 근거로 확인되지 않았습니다.", noSources: "인용된 근거가 없습니다.",
      cite: "근거", page: "p.", pages: "pp.", pageCount: "{n}쪽", uploading: "올리는 중",
      verified: "✓ 근거와 일치", partly: "△ 일부만 일치", weak: "⚠ 근거가 약함",
      queued: "대기 중", running: "처리 중", succeeded: "완료", failed: "실패", interrupted: "중단됨",
      cancelled: "취소됨",
      stage: { upload: "올리기", starting: "준비", validate: "확인", load: "읽기", tokenize: "형태소 분석",
               embed: "임베딩", index: "색인", commit: "저장" },
      added: "추가", updated: "갱신", unchanged: "변경 없음", pickFiles: "올릴 파일을 고르세요.",
      noDocs: "문서가 없습니다.", loading: "불러오는 중…", keySaved: "API 키를 적용했습니다.",
      collectionsLoaded: "컬렉션 {n}개", error: "오류", expand: "펼치기", collapse: "접기",
      noTree: "이 문서에는 조항 구조가 없습니다.", empty: "(빈 컬렉션)",
      welcomeDocs: "이 컬렉션의 문서", welcomeSamples: "이런 질문을 해 보세요",
      welcomeEmpty: "아직 문서가 없습니다. ‘문서’ 탭에서 올려 보세요.",
      refs: "참조", refOther: "다른 법령·문서", refMissing: "이 문서에 없는 조항", notes: "각주",
      remove: "삭제", removeConfirm: "정말 삭제", removed: "삭제했습니다: {name}",
      newCollection: "새 컬렉션", newCollectionHint: "영문·숫자 (예: contracts)", create: "만들기",
      created: "컬렉션 ‘{name}’을(를) 만들었습니다.",
    },
    en: {
      skip: "Skip to content", collection: "Collection", apiKey: "API key", apiKeyHint: "only if required",
      apply: "Apply", tabAsk: "Ask", tabDocs: "Documents", question: "Question",
      questionHint: "e.g. What does a change-of-mind return cost?", ask: "Ask", answer: "Answer", sources: "Sources",
      warnings: "Notes", evidence: "Cited clause", openInDoc: "Show in document",
      uploadLabel: "Upload documents (PDF, DOCX, HWP, HWPX, HTML, Markdown, text)", upload: "Upload", documents: "Documents",
      tree: "Clause tree", clause: "Clause", thinking: "Finding the answer…", noCollections: "No collections",
      needKey: "This server needs an API key: enter it above and press ‘Apply’.",
      unsupported: "Some statements could not be confirmed by their sources.", noSources: "No sources cited.",
      cite: "Source", page: "p.", pages: "pp.", pageCount: "{n} p.", uploading: "Uploading",
      verified: "✓ matches the source", partly: "△ partly matches", weak: "⚠ weak match",
      queued: "queued", running: "running", succeeded: "done", failed: "failed", interrupted: "interrupted",
      cancelled: "cancelled",
      stage: { upload: "upload", starting: "starting", validate: "checking", load: "reading", tokenize: "tokenising",
               embed: "embedding", index: "indexing", commit: "saving" },
      added: "added", updated: "updated", unchanged: "unchanged", pickFiles: "Choose files to upload.",
      noDocs: "No documents.", loading: "Loading…", keySaved: "API key applied.",
      collectionsLoaded: "{n} collection(s)", error: "Error", expand: "Expand", collapse: "Collapse",
      noTree: "This document has no clause tree.", empty: "(empty collection)",
      welcomeDocs: "Documents in this collection", welcomeSamples: "Try asking",
      welcomeEmpty: "No documents yet: upload some in the ‘Documents’ tab.",
      refs: "References", refOther: "another law or document", refMissing: "not in this document", notes: "Footnotes",
      remove: "Delete", removeConfirm: "Really delete", removed: "Deleted: {name}",
      newCollection: "New collection", newCollectionHint: "letters, digits (e.g. contracts)", create: "Create",
      created: "Collection ‘{name}’ created.",
    },
  };

  // What went wrong, in the page's language (the server's English message is kept for English).
  J.ERR_KO = {
    type_mismatch: "파일 이름이 말하는 형식과 실제 내용이 다릅니다",
    unsupported_type: "지원하지 않는 파일 형식입니다 (PDF, DOCX, HWP, HWPX, HTML, Markdown, 텍스트만 올릴 수 있습니다)",
    too_large: "파일이 너무 큽니다", empty_file: "빈 파일입니다",
    zip_bomb: "압축을 풀면 지나치게 커지는 파일이라 받지 않았습니다", corrupt_file: "파일이 손상되어 읽을 수 없습니다",
    encrypted: "암호가 걸린 파일은 읽을 수 없습니다",
    no_text_layer: "글자를 뽑을 수 없습니다 (스캔한 문서라면 글자 인식(OCR)이 먼저 필요합니다)",
    encoding: "글자 인코딩을 알아볼 수 없습니다", oversize: "문서가 너무 크거나 한 쪽에 글자가 지나치게 많습니다",
    too_many_files: "한 번에 올릴 수 있는 파일 수를 넘었습니다", no_file: "올릴 파일이 없습니다",
    bad_filename: "쓸 수 없는 파일 이름입니다", name_conflict: "이미 있는 문서와 이름이 겹칩니다. 파일 이름을 바꿔 주세요",
    timeout: "처리 시간이 제한을 넘어 중단했습니다", memory_limit: "메모리 제한을 넘어 중단했습니다",
    cancelled: "취소했습니다", interrupted: "서버가 멈춰 처리가 중단되었습니다",
    forbidden: "이 컬렉션을 쓸 권한이 없습니다", unauthorized: "API 키가 필요합니다",
    bad_collection: "컬렉션 이름은 영문자, 숫자, ‘.’, ‘_’, ‘-’로 63자까지 쓸 수 있습니다",
    conflict: "이미 있습니다", not_found: "찾을 수 없습니다", too_long: "질문이 너무 깁니다",
    invalid: "요청이 올바르지 않습니다",
  };
})();
