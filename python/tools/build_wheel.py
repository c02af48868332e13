"""Writes gradgen's wheel (PEP 427) reproducibly: the same inputs give the same bytes.

    build_wheel.py --out W.whl --name gradgen --version V --tag cp311-cp311-linux_x86_64 \
        --file gradgen/__init__.py=path/to/__init__.py --file gradgen/_C.so=path/to/_C.so ...

Entries are sorted, dated 1980-01-01 (the zip epoch), with fixed permissions (0755 for shared
objects, 0644 otherwise); RECORD lists every file with its sha256 and size.
"""

import argparse
import base64
import hashlib
import sys
import zipfile

_DATE = (1980, 1, 1, 0, 0, 0)


def _record_hash(data):
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


def _entry(name, mode):
    info = zipfile.ZipInfo(name, date_time=_DATE)
    info.external_attr = (0o100000 | mode) << 16  # a regular file with these permissions
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # Unix, so that the permissions are read back
    return info


def build(out, name, version, tag, files, summary, requires_python):
    dist_info = "%s-%s.dist-info" % (name, version)
    python_tag, abi_tag, platform_tag = tag.split("-")
    metadata = "\n".join(
        [
            "Metadata-Version: 2.1",
            "Name: " + name,
            "Version: " + version,
            "Summary: " + summary,
            "Requires-Python: " + requires_python,
            "Provides-Extra: numpy",
            'Requires-Dist: numpy; extra == "numpy"',
            "",
            "",
        ]
    )
    wheel = "\n".join(
        [
            "Wheel-Version: 1.0",
            "Generator: gradgen build_wheel.py",
            "Root-Is-Purelib: false",
            "Tag: %s-%s-%s" % (python_tag, abi_tag, platform_tag),
            "",
        ]
    )
    contents = {}
    for archive_name, path in files:
        if archive_name in contents:
            sys.exit("build_wheel: %s given twice" % archive_name)
        with open(path, "rb") as f:
            contents[archive_name] = f.read()
    contents[dist_info + "/METADATA"] = metadata.encode("utf-8")
    contents[dist_info + "/WHEEL"] = wheel.encode("utf-8")
    record_name = dist_info + "/RECORD"
    lines = ["%s,%s,%d" % (n, _record_hash(d), len(d)) for n, d in sorted(contents.items())]
    lines.append(record_name + ",,")
    contents[record_name] = ("\n".join(lines) + "\n").encode("utf-8")

    with zipfile.ZipFile(out, "w") as zf:
        # dist-info last, as pip and PEP 427 recommend; everything else sorted.
        names = sorted(n for n in contents if not n.startswith(dist_info + "/"))
        names += [dist_info + "/METADATA", dist_info + "/WHEEL", record_name]
        for n in names:
            mode = 0o755 if n.endswith(".so") else 0o644
            zf.writestr(_entry(n, mode), contents[n])


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", required=True)
    parser.add_argument("--name", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--tag", required=True, help="python-abi-platform, e.g. cp311-cp311-linux_x86_64")
    parser.add_argument("--summary", default="")
    parser.add_argument("--requires_python", required=True)
    parser.add_argument("--file", action="append", default=[], help="archive_name=path")
    args = parser.parse_args(argv)
    files = []
    for spec in args.file:
        archive_name, _, path = spec.partition("=")
        if not path:
            sys.exit("build_wheel: --file expects archive_name=path, got %r" % spec)
        files.append((archive_name, path))
    build(args.out, args.name, args.version, args.tag, files, args.summary, args.requires_python)


if __name__ == "__main__":
    main(sys.argv[1:])
