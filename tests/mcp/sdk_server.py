"""An MCP server written with the `mcp` SDK for the tests: pydantic Optional, nested models, enums and
a recursive model, as FastMCP / MCPServer generates them. `python sdk_server.py [stdio|http PORT]`."""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from typing import Optional

from pydantic import BaseModel, Field

try:  # mcp 2.x
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef]


class Unit(StrEnum):
    celsius = "celsius"
    fahrenheit = "fahrenheit"


class Address(BaseModel):
    street: str
    city: str
    postcode: Optional[str] = None  # noqa: UP045


class Person(BaseModel):
    name: str = Field(description="full name")
    address: Address
    unit: Unit = Unit.celsius


class Node(BaseModel):
    label: str
    children: list[Node] = []


server = Server(os.environ.get("TOOLCAST_TEST_SERVER_NAME", "toolcast-test-server"))


@server.tool()
def get_weather(city: str, unit: Unit = Unit.celsius, days: Optional[int] = None) -> str:  # noqa: UP045
    """Weather forecast for a city."""
    return f"{city} {unit} {days}"


@server.tool()
def register_person(person: Person, note: Optional[str] = None) -> str:  # noqa: UP045
    """Register a person with their address."""
    return person.name


@server.tool()
def count_nodes(tree: Node) -> int:
    """Count the nodes of a tree."""
    return 1 + sum(count_nodes(c) for c in tree.children)


@server.tool()
def ping() -> str:
    """Answer pong."""
    return "pong"


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "http":
        server.run(transport="streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
