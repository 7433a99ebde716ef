"""Test doubles shared by the index tests (also imported by crash-test subprocesses)."""

from __future__ import annotations

import hashlib
import time

import numpy as np


class HashEmbedder:
    """Deterministic bag-of-characters vectors: similar texts get similar vectors; no model needed."""

    name = "test/hash-64"

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.calls = 0
        self.n_texts = 0

    @property
    def dim(self) -> int:
        return 64

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(64, dtype=np.float32)
        for ch in text:
            v[int(hashlib.md5(ch.encode()).hexdigest(), 16) % 64] += 1.0
        n = np.linalg.norm(v)
        return v / n if n else v

    def embed_passages(self, texts):
        self.calls += 1
        self.n_texts += len(texts)
        if self.delay:
            time.sleep(self.delay)
        return np.vstack([self._vec(t) for t in texts]) if texts else np.zeros((0, 64), np.float32)

    def embed_query(self, text):
        return self._vec(text)


CONTRACT = """물품매매계약서

제1조 (목적)
이 계약은 매도인이 목적물을 공급하고 매수인이 대금을 지급하는 데 필요한 사항을 정한다.

제2조 (인도)
① 매도인은 2025년 6월 30일까지 목적물을 인도한다.
② 인도 장소는 매수인의 물류센터로 한다.

제3조 (대금)
매수인은 검수 완료일부터 30일 이내에 대금을 지급한다.

제7조 (위약금)
① 매도인이 인도일까지 목적물을 인도하지 못한 경우 지체상금을 위약금으로 지급한다.
② 위약금의 구체적인 산정 방법은 부록A 제2조에 따른다.

제8조 (분쟁 해결)
분쟁은 서울중앙지방법원을 관할 법원으로 한다.

부록A (위약 책임 세칙)
제1조 (적용 범위)
이 부록은 본문 제7조에 따른 위약금의 산정에 관한 세부 사항을 정한다.
제2조 (위약금 산정)
① 지체상금은 계약금액에 1천분의 1.5를 곱한 금액에 지체일수를 곱하여 산정한다.
② 지체상금의 총액은 계약금액의 100분의 10을 넘지 못한다.
"""

POLICY = """포인트정책

제1조 (목적)
이 정책은 포인트 적립과 사용 기준을 정한다.

제2조 (적립)
포인트는 구매확정 다음 날 결제 금액의 1%가 적립된다.

제3조 (유효기간)
포인트의 유효기간은 적립일로부터 1년이다.
"""
