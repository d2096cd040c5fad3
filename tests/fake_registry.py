"""A stand-in npm registry on the loopback interface, serving packages built here.

npm is pointed at it with ``npm_config_registry``; it answers a package's document
(``/@scope%2fname``) and its tarballs, counts the requests it served, and knows nothing of the
real registry, so the tests that install releases need no network.

The stand-in release ``@earendil-works/pi-coding-agent`` 9.9.9 (with ``@earendil-works/pi-ai``
9.9.9) has a few of the real one's exports and lacks the others on purpose: ``convertToLlm``
and ``VERSION`` in its entry point; ``parseCommandArgs`` but no ``substituteArgs`` in
``core/prompt-templates.js``; no ``core/resolve-config-value.js`` at all; a
``DefaultPackageManager`` class without the real one's methods.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import tarfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

AI = {
    "package.json": {"name": "@earendil-works/pi-ai", "version": "9.9.9", "type": "module",
                     "exports": {".": {"import": "./dist/index.js"}}},
    "dist/index.js": "export function getCurrentSystemPrompt() { return ''; }\n",
}
CODING_AGENT = {
    "package.json": {"name": "@earendil-works/pi-coding-agent", "version": "9.9.9", "type": "module",
                     "exports": {".": {"import": "./dist/index.js"}},
                     "dependencies": {"@earendil-works/pi-ai": "9.9.9"}},
    "dist/index.js": ("export const VERSION = '9.9.9';\n"
                      "export function convertToLlm(messages) { return messages; }\n"
                      "export const SettingsManager = { inMemory() { return {}; } };\n"
                      "export class DefaultPackageManager { constructor(options) { this.options = options; } }\n"),
    # Splits on spaces only: the stand-in's own rule, so that its answers are told from Pi's.
    "dist/core/prompt-templates.js": "export function parseCommandArgs(text) { return text.split(' '); }\n",
}


def tarball(files: dict) -> bytes:
    """An npm package tarball (gzip'd tar, every file under ``package/``) of ``files``."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, content in files.items():
            data = (json.dumps(content) if isinstance(content, dict) else content).encode()
            info = tarfile.TarInfo(f"package/{name}")
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


class FakeRegistry:
    """A registry serving ``packages`` (each a dict of files with a ``package.json``) on
    ``url``; ``requests`` counts what it served, ``tarball_requests`` the tarballs among them. Use as a context manager."""

    def __init__(self, *packages: dict) -> None:
        self.requests = 0
        self.tarball_requests = 0
        self._documents: dict[str, dict] = {}
        self._tarballs: dict[str, bytes] = {}
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        for files in packages:
            self.add(files)

    def add(self, files: dict) -> None:
        manifest = files["package.json"]
        name, version = manifest["name"], manifest["version"]
        data = tarball(files)
        path = f"tarballs/{name.replace('/', '-')}-{version}.tgz"
        self._tarballs["/" + path] = data
        document = self._documents.setdefault(name, {"name": name, "dist-tags": {}, "versions": {}})
        document["dist-tags"]["latest"] = version
        document["versions"][version] = {
            **manifest,
            "dist": {"tarball": self.url + path, "shasum": hashlib.sha1(data).hexdigest(),
                     "integrity": "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()},
        }

    def _handler(self):
        registry = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                registry.requests += 1
                path = unquote(self.path.split("?")[0])
                if path in registry._tarballs:
                    registry.tarball_requests += 1
                    body, kind = registry._tarballs[path], "application/octet-stream"
                elif path.lstrip("/") in registry._documents:
                    body, kind = json.dumps(registry._documents[path.lstrip("/")]).encode(), "application/json"
                else:
                    body, kind = b'{"error":"Not found"}', "application/json"
                    self.send_response(404)
                    self._finish(body, kind)
                    return
                self.send_response(200)
                self._finish(body, kind)

            def _finish(self, body: bytes, kind: str) -> None:
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        return Handler

    def __enter__(self) -> "FakeRegistry":
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
