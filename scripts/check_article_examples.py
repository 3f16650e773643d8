#!/usr/bin/env python3
"""Checks that every Swift code sample of the DocC articles is run by a test.

Each ```swift block in Sources/*/*.docc/**/*.md must appear, line for line and in order (other
lines may come between, such as the #expect checks of the sample's claims), in one of the
Tests/*/ArticleExamplesTests.swift files. Import lines and blank lines are not compared; lines
are compared with their indentation stripped. Prints each block that no test holds and exits 1.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lines_of(text):
    return [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("import ")]


def contains_in_order(haystack, needle):
    i = 0
    for line in haystack:
        if i < len(needle) and line == needle[i]:
            i += 1
    return i == len(needle)


def main():
    tests = {path: lines_of(open(path).read()) for path in glob.glob(os.path.join(ROOT, "Tests", "*", "ArticleExamplesTests.swift"))}
    articles = sorted(glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "**", "*.md"), recursive=True))
    missing = 0
    blocks = 0
    for article in articles:
        text = open(article).read()
        for match in re.finditer(r"^```swift\n(.*?)^```", text, re.S | re.M):
            blocks += 1
            sample = lines_of(match.group(1))
            if not sample:
                continue
            if not any(contains_in_order(lines, sample) for lines in tests.values()):
                missing += 1
                line = text[:match.start()].count("\n") + 1
                print(f"{os.path.relpath(article, ROOT)}:{line}: this Swift sample is not in any Tests/*/ArticleExamplesTests.swift:")
                print("    " + "\n    ".join(sample))
    print(f"check_article_examples: {blocks - missing} of {blocks} Swift samples are run by tests")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
