# Hand-written, not generated: codegen/generate-sdk.mjs copies it from codegen/gensdk/overlays/.
"""``declare_guardrails``: a folder of guardrail YAML/JSON files as resources, from Python."""

import os
import re
from typing import Any, Dict, NamedTuple, Optional

import pulumi

from . import _utilities
from .guardrail import Guardrail, GuardrailArgs
from .guardrail_key_assignment import GuardrailKeyAssignment
from .guardrail_member_assignment import GuardrailMemberAssignment

__all__ = ["DeclaredResources", "declare_guardrails"]


class DeclaredResources(NamedTuple):
    """What one declared guardrail became: its Guardrail, and its member and key sets when the file declares them."""

    guardrail: Guardrail
    members: Optional[GuardrailMemberAssignment]
    keys: Optional[GuardrailKeyAssignment]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _pythonic(value: Any) -> Any:
    """The provider's answer in the SDK's Python names (``limitUsd`` -> ``limit_usd``), nested filters included."""
    if isinstance(value, dict):
        return {_snake(k): _pythonic(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_pythonic(v) for v in value]
    return value


def declare_guardrails(
    path: str, name_prefix: str = "", opts: Optional[pulumi.ResourceOptions] = None
) -> Dict[str, DeclaredResources]:
    """
    The Python twin of the TypeScript ``declareGuardrails``: loads one guardrail YAML/JSON file, or
    every ``*.yaml``, ``*.yml``, ``*.json`` file of a folder (``path`` relative to the program's
    folder, or absolute), through the plugin's ``loadGuardrailFiles`` (the same loader and messages:
    every problem at once, with ``file:line:column``, before any resource), then registers a
    ``Guardrail`` per stable id (logical name ``name_prefix + id``), plus its member set
    (``-members``) and key set (``-keys``). ``opts`` apply to every resource.

    :returns: the resources, by stable id.
    """
    try:
        answer = pulumi.runtime.invoke(
            "guardrails:index:loadGuardrailFiles",
            {"path": os.path.abspath(path)},
            pulumi.InvokeOptions(version=_utilities.get_version()),
        ).value
    except Exception as err:  # the loader's problems, said once: no Python traceback around them
        text = str(err)
        marker = "returned an error: "
        raise pulumi.RunError(text[text.index(marker) + len(marker) :] if marker in text else text) from None
    out: Dict[str, DeclaredResources] = {}
    for declared in answer["guardrails"]:
        name = f"{name_prefix}{declared['id']}"
        guardrail = Guardrail(name, GuardrailArgs(**_pythonic(declared["settings"])), opts)
        members = declared.get("members")
        keys = declared.get("keys")
        out[declared["id"]] = DeclaredResources(
            guardrail=guardrail,
            members=GuardrailMemberAssignment(
                f"{name}-members",
                guardrail_id=guardrail.id,
                member_user_ids=members["ids"],
                exclusive=members["exclusive"],
                opts=opts,
            )
            if members
            else None,
            keys=GuardrailKeyAssignment(
                f"{name}-keys", guardrail_id=guardrail.id, key_hashes=keys["ids"], exclusive=keys["exclusive"], opts=opts
            )
            if keys
            else None,
        )
    return out
