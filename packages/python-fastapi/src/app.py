"""The dyno route contract on FastAPI: `create_app()` builds the app; its lifespan opens the data clients."""

from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request, WebSocket
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse

from dyno_scenarios.work import (
    EXTRA_ROUTES, HELLO_TEXT, TEXT_MIN_LENGTH, WEBSOCKET_PATH, error_or_ok, extra_route_body, fibonacci_result, hello_message,
    route_params, route_pattern, validation_result,
)

from data_sources import NO_DATA_SOURCES, open_data_sources


async def _validation_error_as_400(request, error):
    """FastAPI's own handler, with 400 instead of its default 422: the contract's status for a rejected request."""
    return JSONResponse(status_code=400, content={"detail": jsonable_encoder(error.errors())})


async def _internal_server_error(request, error):
    """Starlette's own 500 answer (`Internal Server Error`, text), given where the connection survives it.

    Left to Starlette's ServerErrorMiddleware, an uncaught exception is answered 500 and then re-raised to
    uvicorn, which logs it and closes the connection without a `Connection: close` header, so the client's
    next request on that kept-alive connection is reset. A handler registered for the exception's class
    answers in Starlette's ExceptionMiddleware instead; see README.md, "Deviations"."""
    return PlainTextResponse("Internal Server Error", status_code=500)


def _extra_route_endpoint(path):
    async def endpoint(request: Request):
        return extra_route_body(path, request.path_params)
    return endpoint


def create_app(env=None):
    """Builds the FastAPI app with the whole dyno contract. `env` names the data sources its lifespan opens
    (REDIS_URL, SQLITE_PATH, DATABASE_URL, PG_POOL_SIZE); without it the database routes answer 500."""
    data = NO_DATA_SOURCES

    @asynccontextmanager
    async def lifespan(app):
        nonlocal data
        data = await open_data_sources(env if env is not None else {})
        try:
            yield
        finally:
            await data.close()

    app = FastAPI(lifespan=lifespan)
    app.add_exception_handler(RequestValidationError, _validation_error_as_400)
    app.add_exception_handler(RuntimeError, _internal_server_error)

    @app.get("/plaintext", response_class=PlainTextResponse)
    async def plaintext():
        return HELLO_TEXT

    @app.get("/json")
    async def json():
        return hello_message()

    @app.get("/users/{userId}/posts/{postId}")
    async def params(userId: str, postId: str):  # noqa: N803 (the contract's parameter names)
        return route_params(userId, postId)

    @app.post("/echo")
    async def echo(body: Annotated[Any, Body()]):
        # FastAPI parses the JSON body; malformed JSON is a RequestValidationError (400 here).
        return body

    @app.get("/fibonacci")
    async def fibonacci():
        # CPU-bound: it holds the event loop, as the Node SUTs' handlers do (a thread would add a hop and
        # still hold the GIL).
        return fibonacci_result()

    @app.get("/error/{flag}")
    async def error(flag: str):
        # Raises RuntimeError for flag 1: answered 500 by the exception handler registered above.
        return error_or_ok(flag)

    @app.get("/validation")
    async def validation(number: Annotated[int, Query()], text: Annotated[str, Query(min_length=TEXT_MIN_LENGTH)]):
        return validation_result(number, text)

    @app.get("/redis")
    async def redis_route():
        return await data.redis_message()

    @app.get("/sqlite")
    def sqlite_route():
        # A plain `def`: the blocking sqlite3 call runs in FastAPI's thread pool, off the event loop.
        return data.sqlite_world()

    @app.get("/postgres")
    async def postgres_route():
        return await data.postgres_world()

    @app.websocket(WEBSOCKET_PATH)
    async def websocket_echo(websocket: WebSocket):
        # Every message back as it came: text as text, bytes as bytes. The client's close ends the loop; uvicorn has
        # answered it with the same code already.
        await websocket.accept()
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if message.get("text") is not None:
                await websocket.send_text(message["text"])
            else:
                await websocket.send_bytes(message["bytes"])

    for index, path in enumerate(EXTRA_ROUTES):
        app.add_api_route(route_pattern(path, "{{{}}}"), _extra_route_endpoint(path), methods=["GET"], name=f"extra_{index}")

    return app
