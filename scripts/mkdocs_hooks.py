"""The MkDocs hooks of the documentation site (``mkdocs.yml``, ``scripts/docs``).

The README is the site's home page and CHANGELOG.md, where there is one, its changelog
page: both live at the top of the repository, where GitHub shows them, and are added to
the site as they are, their links into ``docs/`` and to each other made relative to
the site. ``mkdocs
serve`` rebuilds when they change.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent

# Pages of the site written at the top of the repository: file there -> page of the site.
TOP_PAGES = {"README.md": "index.md", "CHANGELOG.md": "changelog.md"}

# A Markdown link or image into docs/: ](docs/ -> ](
DOCS_LINK = re.compile(r"\]\(docs/")

# A Markdown link from one top page to another: ](CHANGELOG.md -> ](changelog.md
TOP_LINK = re.compile(r"\]\((" + "|".join(re.escape(name) for name in TOP_PAGES) + ")")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    for name, page in TOP_PAGES.items():
        path = ROOT / name
        if path.exists():
            text = DOCS_LINK.sub("](", path.read_text(encoding="utf-8"))
            text = TOP_LINK.sub(lambda link: f"]({TOP_PAGES[link.group(1)]}", text)
            files.append(File.generated(config, page, content=text))
    return files


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    for name in TOP_PAGES:
        if (ROOT / name).exists():  # watching a missing file stops the server
            server.watch(str(ROOT / name))
    server.watch(str(ROOT / "src" / "hanamikoji"))
    return server
