"""A small MCP server written with the official `mcp` package (its FastMCP server; `MCPServer` in mcp 2.x), run
over stdio by examples/mcp_to_providers.py. Its tool's name has a dot, which MCP and Gemini accept and
Anthropic does not: toolcast sends it as `weather_forecast` there and maps the calls back."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import Field

try:  # mcp 2.x
    from mcp.server.mcpserver import MCPServer as Server
except ImportError:  # mcp 1.x
    from mcp.server.fastmcp import FastMCP as Server  # type: ignore[no-redef]


class Unit(StrEnum):
    celsius = "celsius"
    fahrenheit = "fahrenheit"


server = Server("weather")


@server.tool(name="weather.forecast")
def forecast(city: Annotated[str, Field(description="City name, e.g. Paris")],
             days: Annotated[int | None, Field(ge=1, le=7, description="How many days ahead")] = None,
             unit: Unit = Unit.celsius) -> str:
    """Weather forecast for a city."""
    return f"{city}: sunny for the next {days or 1} day(s), 21 degrees {unit.value}"


@server.tool()
def list_cities(country: Annotated[str, Field(min_length=2, max_length=2, description="ISO 3166 country code")]
                ) -> list[str]:
    """Cities with a forecast in a country."""
    return {"FR": ["Lyon", "Paris"], "DE": ["Berlin"]}.get(country.upper(), [])


if __name__ == "__main__":
    server.run()  # stdio
