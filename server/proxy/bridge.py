"""The proxy itself: the official ``mcp`` SDK's client to the server (``ClientSession`` over stdio or
streamable HTTP) and its low-level ``Server`` to the host, with a handler per request type.

``tools/list`` answers from the plan (``adapters/proxy_plan.py``); ``tools/call`` maps the call back and
validates it before the server sees it; resources, prompts, completions, logging level and ping are sent
on as they came, and what the server asks of the client (sampling, elicitation, roots) or tells it
(logging, progress, list and resource changes) is sent on to the host. A handler the host cancels is
cancelled by the SDK, whose client then cancels the server's request. Each request to the server is
bounded by the timeout; the server's end is noticed from its stderr closing, and stops the proxy."""

from __future__ import annotations

import contextlib
import os
import threading
import warnings
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from functools import partial
from typing import Any, cast

import anyio
import mcp_types as mt
import uvicorn
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.server.lowlevel.server import NotificationOptions, Server
from mcp.server.session import ServerSession
from mcp.shared.exceptions import MCPError
from toolcast.adapters.errors import ToolcastError
from toolcast.adapters.proxy_plan import Plan, ProxySettings, lower_tools
from toolcast.server.mcp_source import McpSource, McpSourceError, list_all_tools

from .change_log import Reporter
from .stderr_relay import StderrTail

#: JSON-RPC's "internal error": what the host gets when the server cannot be asked.
_INTERNAL = -32603
_SHOWN_NOT_MCP = 3


class ProxyError(Exception):
    """The proxy cannot start (``serving`` false) or go on; the message is one line for the user."""

    def __init__(self, text: str, *, serving: bool = False) -> None:
        super().__init__(text)
        self.serving = serving


@dataclass
class ProxyState:
    """What the handlers share: the current plan, the host's session (for what the server sends the host)
    and why the proxy stopped, if it did."""

    plan: Plan
    settings: ProxySettings
    server_name: str
    reporter: Reporter
    who: str
    timeout: float
    host: ServerSession | None = None
    stopped: list[str] = field(default_factory=list)
    not_mcp: int = 0
    #: Until the tools are listed: output that is not MCP then ends the start (later it is logged).
    starting: anyio.CancelScope | None = None


def _call_error(text: str) -> mt.CallToolResult:
    return mt.CallToolResult(content=[mt.TextContent(type="text", text=text)], is_error=True)


async def _list_all(session: ClientSession) -> list[dict[str, Any]]:
    try:
        return await list_all_tools(session)
    except McpSourceError as exc:
        raise ProxyError(str(exc)) from None


def make_plan(tools: list[dict[str, Any]], state_settings: ProxySettings, server: str) -> Plan:
    try:
        return lower_tools(tools, state_settings, server)
    except ToolcastError as exc:
        raise ProxyError(str(exc)) from None


def host_server(state: ProxyState, upstream: ClientSession, caps: mt.ServerCapabilities) -> Server[Any]:
    """The low-level SDK server the host talks to, declaring what the server declared."""

    async def forward(ctx: Any, request: Any, result: type[Any]) -> Any:
        state.host = ctx.session
        try:
            return await upstream.send_request(request, result)
        except MCPError:
            raise
        except Exception as exc:  # a result the server sent that is not MCP
            raise MCPError(_INTERNAL, f"the server's answer could not be read: {type(exc).__name__}") from None

    async def list_tools(ctx: Any, params: mt.PaginatedRequestParams | None) -> mt.ListToolsResult:
        state.host = ctx.session
        return mt.ListToolsResult(tools=[mt.Tool.model_validate(t) for t in state.plan.tools()])

    async def call_tool(ctx: Any, params: mt.CallToolRequestParams) -> mt.CallToolResult:
        state.host = ctx.session
        return await call_upstream(state, upstream, ctx.session, params)

    handlers: dict[str, Callable[..., Awaitable[Any]]] = {"on_list_tools": list_tools, "on_call_tool": call_tool}

    def passing(request_type: Any, result: type[Any]) -> Callable[..., Awaitable[Any]]:
        async def handler(ctx: Any, params: Any) -> Any:
            return await forward(ctx, request_type(params=params), result)
        return handler

    if caps.resources is not None:
        handlers["on_list_resources"] = passing(mt.ListResourcesRequest, mt.ListResourcesResult)
        handlers["on_list_resource_templates"] = passing(mt.ListResourceTemplatesRequest,
                                                         mt.ListResourceTemplatesResult)
        handlers["on_read_resource"] = passing(mt.ReadResourceRequest, mt.ReadResourceResult)
        if caps.resources.subscribe:
            handlers["on_subscribe_resource"] = passing(mt.SubscribeRequest, mt.EmptyResult)
            handlers["on_unsubscribe_resource"] = passing(mt.UnsubscribeRequest, mt.EmptyResult)
    if caps.prompts is not None:
        handlers["on_list_prompts"] = passing(mt.ListPromptsRequest, mt.ListPromptsResult)
        handlers["on_get_prompt"] = passing(mt.GetPromptRequest, mt.GetPromptResult)
    if caps.completions is not None:
        handlers["on_completion"] = passing(mt.CompleteRequest, mt.CompleteResult)
    handlers["on_ping"] = passing(mt.PingRequest, mt.EmptyResult)
    with warnings.catch_warnings():  # logging/setLevel is deprecated in the newest protocol; older hosts send it
        warnings.simplefilter("ignore")
        if caps.logging is not None:
            handlers["on_set_logging_level"] = passing(mt.SetLevelRequest, mt.EmptyResult)
        server: Server[Any] = cast(Any, Server)(state.server_name, version="toolcast-proxy", **handlers)
    server.middleware.clear()  # no tracing spans per message
    return server


def initialization(server: Server[Any], caps: mt.ServerCapabilities) -> Any:
    changed = NotificationOptions(
        prompts_changed=bool(caps.prompts and caps.prompts.list_changed),
        resources_changed=bool(caps.resources and caps.resources.list_changed),
        tools_changed=True)  # the proxy's own list changes when the server's does
    return server.create_initialization_options(changed, caps.experimental)


async def call_upstream(state: ProxyState, upstream: ClientSession, host: ServerSession,
                        params: mt.CallToolRequestParams) -> mt.CallToolResult:
    """A host's call, mapped back and validated; what the server's schema rejects never reaches it."""
    mapped = state.plan.map_call(params.name, params.arguments)
    if mapped is None:
        return _call_error(f"unknown tool {params.name!r}: not one of the tools this server serves")
    if mapped.problems:
        found = "; ".join(f"{p.pointer or '/'}: {p.message}" for p in mapped.problems[:10])
        state.reporter.event("call_rejected", tool=params.name, server_tool=mapped.name,
                             problems=mapped.to_dict()["problems"])
        return _call_error(f"the arguments do not match the tool's schema, so the call was not sent: {found}")

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        await host.report_progress(progress, total, message)

    try:
        result = await upstream.call_tool(mapped.name, mapped.arguments, progress_callback=on_progress,
                                          meta=params.meta)
    except MCPError as exc:
        if exc.code == mt.REQUEST_TIMEOUT:
            return _call_error(f"the server did not answer within {state.timeout:g} s; the call was cancelled")
        if "closed" in exc.message.lower():
            return _call_error("the server closed the connection before it answered (did it exit?)")
        return _call_error(f"the server answered with an error: {exc.message}")
    except Exception as exc:  # a result that is not MCP, or one its own outputSchema rejects
        return _call_error(f"the server's result could not be read: {type(exc).__name__}: "
                           f"{' '.join(str(exc).split())[:300]}")
    return result


Job = Callable[[], Coroutine[Any, Any, None]]


def client_callbacks(state: ProxyState, relist: Job, spawn: Callable[[Job], None]) -> dict[str, Any]:
    """What the server sends the client, sent on to the host."""

    async def ask_host(request: Any, result: type[Any]) -> Any:
        host = state.host
        if host is None:
            return mt.ErrorData(code=_INTERNAL, message="no host is connected to the proxy yet")
        try:
            return await host.send_request(request, result)
        except MCPError as exc:
            return exc.error
        except Exception as exc:
            return mt.ErrorData(code=_INTERNAL, message=f"the host's answer could not be read: {type(exc).__name__}")

    async def sampling(context: Any, params: mt.CreateMessageRequestParams) -> Any:
        return await ask_host(mt.CreateMessageRequest(params=params), mt.CreateMessageResult)

    async def elicitation(context: Any, params: Any) -> Any:
        return await ask_host(mt.ElicitRequest(params=params), mt.ElicitResult)

    async def roots(context: Any) -> Any:
        return await ask_host(mt.ListRootsRequest(), mt.ListRootsResult)

    async def logging(params: mt.LoggingMessageNotificationParams) -> None:
        if state.host is not None:
            await state.host.send_notification(mt.LoggingMessageNotification(params=params))

    async def message(item: Any) -> None:
        if isinstance(item, Exception):
            what = " ".join(str(item).split())[:200]
            if state.starting is not None:
                state.stopped.append(f"wrote something that is not MCP (JSON-RPC) while starting: {what}")
                state.starting.cancel()
            else:
                state.not_mcp += 1
                if state.not_mcp <= _SHOWN_NOT_MCP:  # a server flooding its stdout does not flood the host's log
                    more = " (further such output is ignored without a line)" if state.not_mcp == _SHOWN_NOT_MCP else ""
                    state.reporter.line(f"the server wrote something that is not MCP (ignored): {what}{more}")
        elif isinstance(item, mt.ToolListChangedNotification):
            spawn(relist)  # listing again waits for the server: never inside its reader
        elif isinstance(item, (mt.ResourceUpdatedNotification, mt.ResourceListChangedNotification,
                               mt.PromptListChangedNotification)) and state.host is not None:
            await state.host.send_notification(item)

    return {"sampling_callback": sampling, "elicitation_callback": elicitation, "list_roots_callback": roots,
            "logging_callback": logging, "message_handler": message}


async def _connect(stack: contextlib.AsyncExitStack, source: McpSource, tail: StderrTail | None) -> tuple[Any, Any]:
    if source.url:
        read, write = await stack.enter_async_context(streamable_http_client(source.url))
        return read, write
    assert tail is not None
    env = (dict(os.environ) if source.inherit_env else {}) | dict(source.env)
    params = StdioServerParameters(command=source.command[0], args=list(source.command[1:]), env=env, cwd=source.cwd)
    streams = await stack.enter_async_context(stdio_client(params, errlog=tail.writer))
    tail.started()
    return streams[0], streams[1]


HostStreams = Callable[[], contextlib.AbstractAsyncContextManager[tuple[Any, Any]]]
#: Seconds the proxy waits, once the server is gone, for its own orderly end before it exits anyway: the
#: SDK's stdio reader waits in a thread for the host's next line, which may never come.
_GRACE = 3.0
#: Seconds the calls in flight get to answer the host once the server is gone.
_ANSWER_PENDING = 0.5


async def run(source: McpSource, settings: ProxySettings, timeout: float, reporter: Reporter,
              host_streams: HostStreams, who: str, tail: StderrTail | None,
              gone: Callable[[str], None] = lambda why: None, listen: tuple[str, int] | None = None) -> None:
    """Serve until the host disconnects (returns) or the server is gone (``ProxyError``; ``gone`` is called
    with the reason if the proxy has not ended ``_GRACE`` seconds later, and must end the process). With
    ``listen`` (host, port), hosts connect over streamable HTTP at ``http://HOST:PORT/mcp`` instead of stdio."""
    async with contextlib.AsyncExitStack() as stack:
        group = await stack.enter_async_context(anyio.create_task_group())
        state = ProxyState(make_plan([], settings, ""), settings, settings.server_name or "", reporter, who,
                           timeout)

        async def relist() -> None:
            try:
                with anyio.fail_after(timeout):
                    tools = await _list_all(upstream)
                state.plan = make_plan(tools, state.settings, state.server_name)
            except (ProxyError, MCPError, TimeoutError) as exc:
                reporter.line(f"the server's new tool list could not be read; serving the previous one: {exc}")
                return
            if state.host is not None:
                await state.host.send_tool_list_changed()
            await anyio.to_thread.run_sync(reporter.plan, state.plan, state.server_name, len(tools), state.who,
                                           abandon_on_cancel=True)

        def spawn(job: Job) -> None:
            group.start_soon(job)

        read, write = await _connect(stack, source, tail)
        upstream = await stack.enter_async_context(ClientSession(
            read, write, read_timeout_seconds=timeout, client_info=mt.Implementation(name="toolcast-proxy",
                                                                                      version="1"),
            **client_callbacks(state, relist, spawn)))
        with anyio.fail_after(timeout), anyio.CancelScope() as state.starting:
            init = await upstream.initialize()
            tools = await _list_all(upstream) if init.capabilities.tools is not None else []
        if state.stopped:
            raise ProxyError(state.stopped[0])
        state.starting = None
        state.server_name = settings.server_name or init.server_info.name
        state.plan = make_plan(tools, settings, state.server_name)
        # Reported beside serving: the token estimate loads the tokenizer (seconds), which the host's
        # initialize need not wait for.
        group.start_soon(partial(anyio.to_thread.run_sync, reporter.plan, state.plan, state.server_name, len(tools),
                                 who, abandon_on_cancel=True))
        server = host_server(state, upstream, init.capabilities)
        options = initialization(server, init.capabilities)
        if tail is not None:
            group.start_soon(_watch_server, tail, state, group.cancel_scope, gone)
        if listen is not None:
            await _serve_http(server, listen, reporter)
        else:
            async with host_streams() as (host_read, host_write):
                await server.run(host_read, host_write, options)
        group.cancel_scope.cancel()
    if state.stopped:
        raise ProxyError(state.stopped[0], serving=True)


async def _watch_server(tail: StderrTail, state: ProxyState, scope: anyio.CancelScope,
                        gone: Callable[[str], None]) -> None:
    await anyio.to_thread.run_sync(tail.closed.wait, abandon_on_cancel=True)
    why = "the server exited (its stderr closed)"
    state.stopped.append(why)
    await anyio.sleep(_ANSWER_PENDING)  # calls in flight answer the host with an error result first
    timer = threading.Timer(_GRACE, gone, (why,))
    timer.daemon = True
    timer.start()
    scope.cancel()


async def _serve_http(server: Server[Any], listen: tuple[str, int], reporter: Reporter) -> None:
    """The SDK's streamable HTTP app for the same handlers, under uvicorn (which the ``mcp`` extra brings), until
    interrupted. Every session shares the one server connection (one host at a time is what the proxy is for)."""
    host, port = listen
    config = uvicorn.Config(server.streamable_http_app(), host=host, port=port, log_level="warning",
                            lifespan="on")
    reporter.line(f"listening on http://{host}:{port}/mcp")
    await uvicorn.Server(config).serve()
