"""What phones, the display and the host send over their websockets (PROTOCOL.md 3.1-3.3).

A message as parsed (``guard.parse``) is a :data:`JsonObject`: a JSON object whose ``type`` is
a string and whose other fields are not checked yet, so every field read from it is checked
where it is read (an ``isinstance``, ``Table``'s own checks). A checked kind of message is a
TypedDict below, made only by the code that checks it (``guard.command_request``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NotRequired, TypeAlias, TypedDict

# A JSON object as a client sent it: its keys are strings, its values anything JSON holds.
JsonObject: TypeAlias = Mapping[str, object]


class CommandRequest(TypedDict):
    """A ``command`` message whose keys are exactly those PROTOCOL.md and SCENARIO.md give."""

    type: Literal["command"]
    id: object  # checked by the table (1 to 64 characters)
    token: NotRequired[object]
    command: JsonObject  # an object with a string type: the engine checks the rest
