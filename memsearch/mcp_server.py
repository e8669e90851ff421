"""``memsearch mcp``: memory_search and memory_open over stdio, with the official ``mcp`` SDK.

An MCP client (Claude Desktop, an agent framework, the SDK's own ``ClientSession``) mounts the vault's
memory with::

    {"command": "memsearch", "args": ["mcp", "--vault", "/path/to/vault"]}

Each call answers with the tool's JSON twice: as text content (what a model reads) and as
``structuredContent`` (what a program reads). A failed call is a tool result with ``isError`` set,
never a protocol error, so the model sees the message and can correct itself. Stdout belongs to the
protocol: nothing else is ever printed there.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from memsearch import __version__
from memsearch.errors import MemsearchError
from memsearch.tool import TOOLS, MemoryTools

SERVER_NAME = "memsearch"
INSTRUCTIONS = (
    "Long-term memory of this agent: a vault of markdown files. memory_search says where a memory "
    "lives (ranked pointers, never content); memory_open reads the lines a pointer names."
)


def require_sdk() -> None:
    """The official SDK, major version 2 (its low-level server takes handlers in the constructor)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("mcp")
    except PackageNotFoundError:
        raise MemsearchError("the MCP SDK is not installed; run: pip install 'mcp>=2.3,<3'") from None
    if not found.split(".")[0].isdigit() or int(found.split(".")[0]) < 2:
        raise MemsearchError(
            f"memsearch mcp needs the MCP SDK 2.x (found {found}); run: pip install 'mcp>=2.3,<3'"
        )


def build_server(tools: MemoryTools) -> Any:
    """A low-level MCP ``Server`` exposing the two tools with their own JSON Schemas."""
    require_sdk()
    import anyio
    import mcp.types as types
    from mcp.server.lowlevel import Server

    listed = [
        types.Tool(name=t["name"], description=t["description"], input_schema=t["schema"]) for t in TOOLS
    ]

    async def on_list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def on_call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        # The search is synchronous CPU work: run it off the event loop so pings still answer.
        answer = await anyio.to_thread.run_sync(tools.call, params.name, params.arguments or {})
        return types.CallToolResult(
            content=[types.TextContent(text=json.dumps(answer, ensure_ascii=False))],
            structured_content=answer,
            is_error=not answer.get("ok", False),
        )

    return Server(
        SERVER_NAME,
        version=__version__,
        instructions=INSTRUCTIONS,
        on_list_tools=on_list_tools,
        on_call_tool=on_call_tool,
    )


async def serve_stdio(tools: MemoryTools) -> None:
    from mcp.server.stdio import stdio_server

    server = build_server(tools)
    async with stdio_server() as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def serve(vault: str | Path | None, index_dir: str | Path | None = None, auto_index: bool = False) -> None:
    """Serve the vault's memory over stdio until the client hangs up."""
    import anyio

    require_sdk()
    tools = MemoryTools(vault, index_dir=index_dir, auto_index=auto_index)
    anyio.run(serve_stdio, tools)
