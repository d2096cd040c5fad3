"""envelope.session -- ENV-SVC-CLEAR-MEMORY, ENV-SVC-FAIL-NONE.
Bug: clear forgets the stored request only; the session's last good envelopes survive it, so a failing capture after clear reuses an envelope built before the clear."""

from reference.envelope import service
from tests.blind.common import swapped

CLEAR, CAPTURE = service.EnvelopeService.clear, service.EnvelopeService.capture


def clear(self, session_id):
    state = self.sessions.get(session_id)
    if state is not None:
        self.__dict__.setdefault("_kept", {})[session_id] = state.lastGood
    return CLEAR(self, session_id)


def capture(self, request):
    kept = self.__dict__.get("_kept", {}).pop(request.sessionId, None)
    if kept is not None and request.sessionId not in self.sessions:
        self.sessions[request.sessionId] = service.SessionState(request=request, lastGood=kept)
    return CAPTURE(self, request)


def handle(msg, call):
    with swapped([(service.EnvelopeService, "clear", clear), (service.EnvelopeService, "capture", capture)]):
        return call()
