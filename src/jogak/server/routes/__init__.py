"""The HTTP endpoints, one router per concern (see ``jogak.server.app`` for the list)."""

from __future__ import annotations

from fastapi import APIRouter

from jogak.server.routes import answers, documents, jobs, pages, reading, versions

ROUTERS: tuple[APIRouter, ...] = (pages.router, answers.router, documents.router, jobs.router, reading.router,
                                  versions.router)
