"""The dyno route contract on Flask: `create_app()` builds the app; wsgi.py opens the data and hands it over."""

from flask import Flask, abort, request
from flask.json.provider import DefaultJSONProvider

from dyno_scenarios.work import (
    EXTRA_ROUTES, HELLO_TEXT, error_or_ok, extra_route_body, fibonacci_result, hello_message, route_params,
    route_pattern, validate_query, validation_result,
)

from data_sources import NO_DATA_SOURCES

TEXT_PLAIN = {"Content-Type": "text/plain; charset=utf-8"}


class ContractJSONProvider(DefaultJSONProvider):
    """Flask's default JSON provider, minus the newline it appends to every JSON response body.

    The contract compares the json scenario's body byte for byte with `{"message":"Hello, World!"}`."""

    def response(self, *args, **kwargs):
        return self._app.response_class(
            self.dumps(self._prepare_response_obj(args, kwargs), separators=(",", ":")), mimetype=self.mimetype
        )


def _extra_route_view(path):
    def view(**params):
        return extra_route_body(path, params)
    return view


def create_app(data=NO_DATA_SOURCES):
    """Builds the Flask app with the whole dyno contract; `data` holds the clients of the database scenarios."""
    app = Flask(__name__)
    app.json = ContractJSONProvider(app)
    app.extensions["dyno.data"] = data

    @app.get("/plaintext")
    def plaintext():
        return HELLO_TEXT, 200, TEXT_PLAIN

    @app.get("/json")
    def json():
        return hello_message()

    @app.get("/users/<userId>/posts/<postId>")
    def params(userId, postId):  # noqa: N803 (the contract's parameter names)
        return route_params(userId, postId)

    @app.post("/echo")
    def echo():
        # Flask's parser: malformed JSON raises BadRequest, answered 400 by Flask.
        return request.get_json()

    @app.get("/fibonacci")
    def fibonacci():
        return fibonacci_result()

    @app.get("/error/<flag>")
    def error(flag):
        # An uncaught exception: Flask's own handling answers 500 (debug is off).
        return error_or_ok(flag)

    @app.get("/validation")
    def validation():
        value, message = validate_query(request.args.get("number"), request.args.get("text"))
        if message is not None:
            abort(400, description=message)
        return validation_result(*value)

    @app.get("/redis")
    def redis_route():
        return data.redis_message()

    @app.get("/sqlite")
    def sqlite_route():
        return data.sqlite_world()

    @app.get("/postgres")
    def postgres_route():
        return data.postgres_world()

    for index, path in enumerate(EXTRA_ROUTES):
        app.add_url_rule(route_pattern(path, "<{}>"), f"extra_{index}", _extra_route_view(path), methods=["GET"])

    return app
