"""Skeleton adapters, one per language, that ``pi-conformance skeleton --lang LANG`` prints: files
for an implementer to copy and fill in, not modules the kit imports. Each answers the handshake
and ``kit.echo`` and every other operation ``unsupported``, so it passes ``pi-conformance smoke``
as it stands (PROTOCOL.md, version 1)."""
