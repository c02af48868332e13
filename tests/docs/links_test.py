"""Every relative link of README.md and docs/*.md leads to a file, and every #anchor to a heading.

The docs link to each other instead of repeating a fact, so a renamed heading or a moved page
would leave a reader at a dead end; this test finds that. Links inside code blocks are not links.
Anchors follow GitHub's rule: the heading in lower case, punctuation dropped, spaces as `-`.
"""

import os
import re
import unittest

import nested_bazel as nb

_FENCE = re.compile(r"^```.*?^```", re.M | re.S)
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_HEADING = re.compile(r"^#+ (.*)$", re.M)


def _prose(path):
    with open(path, encoding="utf-8") as fh:
        return _FENCE.sub("", fh.read())


def anchors(path):
    """The anchors GitHub gives the headings of the Markdown file `path`."""
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in _HEADING.findall(_prose(path))}


def doc_files(checkout):
    docs = sorted(f for f in os.listdir(os.path.join(checkout, "docs")) if f.endswith(".md"))
    return ["README.md", "bench/README.md"] + ["docs/" + f for f in docs]


def broken_links(checkout):
    """["file: link (why)"] for every relative link that leads nowhere."""
    broken = []
    for name in doc_files(checkout):
        path = os.path.join(checkout, name)
        for link in _LINK.findall(_prose(path)):
            if re.match(r"^[a-z]+:", link):  # https:, mailto:
                continue
            target, _, anchor = link.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(path), target)) if target else path
            if not os.path.exists(full):
                broken.append(f"{name}: {link} (no such file)")
            elif anchor and full.endswith(".md") and anchor not in anchors(full):
                broken.append(f"{name}: {link} (no heading with that anchor in {os.path.relpath(full, checkout)})")
    return broken


class LinksTest(unittest.TestCase):
    def test_every_link_resolves(self):
        checkout = nb.gradgen_checkout()
        self.assertEqual([], broken_links(checkout))

    def test_a_broken_link_is_found(self):
        tmp = os.environ.get("TEST_TMPDIR") or __import__("tempfile").mkdtemp()
        os.makedirs(os.path.join(tmp, "docs"), exist_ok=True)
        os.makedirs(os.path.join(tmp, "bench"), exist_ok=True)
        with open(os.path.join(tmp, "README.md"), "w", encoding="utf-8") as fh:
            fh.write("# Top\n\n[a](docs/a.md#a-heading) [b](docs/a.md#gone) [c](docs/none.md)\n\n```\n[d](x.md)\n```\n")
        with open(os.path.join(tmp, "bench", "README.md"), "w", encoding="utf-8") as fh:
            fh.write("[top](../README.md#top)\n")
        with open(os.path.join(tmp, "docs", "a.md"), "w", encoding="utf-8") as fh:
            fh.write("## A heading\n")
        self.assertEqual(
            [
                "README.md: docs/a.md#gone (no heading with that anchor in docs/a.md)",
                "README.md: docs/none.md (no such file)",
            ],
            broken_links(tmp),
        )


if __name__ == "__main__":
    unittest.main()
