"""Response models read off the dataclasses the services answer with, so that a shape is
declared once — in its dataclass: the fields, their types and defaults, and their descriptions
(``Annotated[..., Field(description=...)]``, which a plain dataclass keeps). The API gives the
model its name (the OpenAPI component's); a dataclass in another's fields gets its own model,
named after it (``Streak``'s is ``StreakOut``), made once.

A route returns the service's dataclass and names the model as its ``response_model``; FastAPI
validates the dataclass's fields against it. An enum in a dataclass is shown as the choice of its
values (``Literal``), the form the API documents."""

from __future__ import annotations

import dataclasses
import enum
import functools
import operator
import types
import typing
from typing import Annotated, Any, Literal, get_args, get_origin, get_type_hints

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, create_model

_MODELS: dict[type, type[BaseModel]] = {}


def model_of(
    source: type, name: str | None = None, *, leave_out: tuple[str, ...] = ()
) -> type[BaseModel]:
    """The model of the dataclass ``source`` without the fields ``leave_out``, named ``name``
    (``source``'s name and "Out" by default)."""
    made = _MODELS.get(source)
    if made is not None:
        if name is not None and made.__name__ != name:
            raise ValueError(f"{source.__name__}'s model is {made.__name__}, not {name}")
        return made
    name = f"{source.__name__}Out" if name is None else name
    hints = get_type_hints(source, include_extras=True)
    fields: dict[str, Any] = {}
    for field in dataclasses.fields(source):
        if field.name in leave_out:
            continue
        default = ... if field.default is dataclasses.MISSING else field.default
        fields[field.name] = (_shown(hints[field.name]), default)
    config = ConfigDict(from_attributes=True, populate_by_name=True)
    model: type[BaseModel] = create_model(name, __config__=config, **fields)
    _MODELS[source] = model
    return model


def model_of_view(source: type, name: str) -> type[BaseModel]:
    """The model of one of the engine's view shapes (a ``TypedDict`` of ``engine/view.py``,
    which is standard library only), named ``name``; a string beside a field's type
    (``Annotated[int, "…"]``) is its description, a dataclass beside it the shape the field is
    the JSON form of (``Annotated[dict[str, Any], Score]``), the class's docstring the model's.
    A shape in another's fields is made first, under its own name."""
    made = _MODELS.get(source)
    if made is not None:
        return made
    fields: dict[str, Any] = {}
    for key, hint in get_type_hints(source, include_extras=True).items():
        words = None
        if get_origin(hint) is Annotated:
            words = next((m for m in hint.__metadata__ if isinstance(m, str)), None)
            shapes = [m for m in hint.__metadata__ if dataclasses.is_dataclass(m)]
            hint = shapes[0] if shapes else get_args(hint)[0]
        fields[key] = (_shown(hint), Field(description=words) if words else ...)
    model: type[BaseModel] = create_model(name, __doc__=source.__doc__, **fields)
    _MODELS[source] = model
    return model


def _shown(hint: Any) -> Any:
    """``hint`` with each dataclass replaced by its model and each enum by its values."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return model_of(hint)
    if typing.is_typeddict(hint):
        if hint not in _MODELS:
            raise ValueError(f"{hint.__name__}'s model is made before those that hold it")
        return _MODELS[hint]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        values = Literal[tuple(member.value for member in hint)]  # type: ignore[valid-type]
        return Annotated[values, BeforeValidator(_value)]
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        return Annotated[(_shown(args[0]), *hint.__metadata__)]
    if origin in (types.UnionType, typing.Union):
        return functools.reduce(operator.or_, map(_shown, args))
    if origin is None or origin is Literal:
        return hint
    return origin[tuple(arg if arg is Ellipsis else _shown(arg) for arg in args)]


def _value(given: object) -> object:
    return given.value if isinstance(given, enum.Enum) else given


def list_of(model: type[BaseModel]) -> Any:
    """``list[model]``, for a ``response_model`` (a type checker takes a model made at run time
    for a variable, not a type)."""
    return types.GenericAlias(list, (model,))
