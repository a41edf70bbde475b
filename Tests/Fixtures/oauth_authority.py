"""An OAuth 2.0 authorization server for the end-to-end tests, built with oauthlib (Debian's
python3-oauthlib): the authorization code grant with PKCE (S256), as git-credential-oauth
uses it, and the refresh token grant. basic_auth_server.py serves it, on the forge's own
host as git-credential-oauth 0.4 wants (its URLs are paths of the repository's host), with
--oauth-state-dir:
  GET  /oauth/authorize  a sign-in that the person always completes: the code's redirect
                         (302) to the client's loopback redirect_uri, for client `git-test` only.
  POST /oauth/token      the code (with its PKCE verifier) or a refresh token for an access
                         token (JSON: access_token, token_type, expires_in, refresh_token).
Each access token minted is appended to STATE_DIR/tokens (one a line), each sign-in to
STATE_DIR/sign-ins, and the newest token written to the forge's credential file as
`oauth2:TOKEN`: only the newest token then clones.
"""

import os
import secrets
import threading
from urllib.parse import urlsplit

from oauthlib.oauth2 import RequestValidator, Server

CLIENT = "git-test"


class State:
    directory = ""
    credential_file = None
    username = "oauth2"
    server = None
    lock = threading.Lock()
    codes = {}
    refresh_tokens = {}


def append(name, line):
    with State.lock, open(os.path.join(State.directory, name), "a", encoding="utf-8") as file:
        file.write(line + "\n")


class Validator(RequestValidator):
    """One public client, any loopback redirect URI, PKCE required."""

    def validate_client_id(self, client_id, request, *args, **kwargs):
        return client_id == CLIENT

    def client_authentication_required(self, request, *args, **kwargs):
        return False

    def authenticate_client_id(self, client_id, request, *args, **kwargs):
        if client_id != CLIENT:
            return False
        request.client = type("Client", (), {"client_id": CLIENT})()
        return True

    def validate_redirect_uri(self, client_id, redirect_uri, request, *args, **kwargs):
        return urlsplit(redirect_uri).hostname in ("127.0.0.1", "localhost")

    def get_default_redirect_uri(self, client_id, request, *args, **kwargs):
        return None

    def validate_response_type(self, client_id, response_type, client, request, *args, **kwargs):
        return response_type == "code"

    def validate_scopes(self, client_id, scopes, client, request, *args, **kwargs):
        return True

    def get_default_scopes(self, client_id, request, *args, **kwargs):
        return ["repo"]

    def is_pkce_required(self, client_id, request):
        return True

    def save_authorization_code(self, client_id, code, request, *args, **kwargs):
        State.codes[code["code"]] = {
            "redirect_uri": request.redirect_uri,
            "challenge": request.code_challenge,
            "method": request.code_challenge_method,
            "scopes": request.scopes,
        }

    def validate_code(self, client_id, code, client, request, *args, **kwargs):
        saved = State.codes.get(code)
        if not saved:
            return False
        request.scopes = saved["scopes"]
        request.user = State.username
        return True

    def get_code_challenge(self, code, request):
        return State.codes.get(code, {}).get("challenge")

    def get_code_challenge_method(self, code, request):
        return State.codes.get(code, {}).get("method")

    def confirm_redirect_uri(self, client_id, code, redirect_uri, client, request, *args, **kwargs):
        return State.codes.get(code, {}).get("redirect_uri") == redirect_uri

    def validate_grant_type(self, client_id, grant_type, client, request, *args, **kwargs):
        return grant_type in ("authorization_code", "refresh_token")

    def invalidate_authorization_code(self, client_id, code, request, *args, **kwargs):
        State.codes.pop(code, None)

    def validate_refresh_token(self, refresh_token, client, request, *args, **kwargs):
        return refresh_token in State.refresh_tokens

    def get_original_scopes(self, refresh_token, request, *args, **kwargs):
        return State.refresh_tokens.get(refresh_token, ["repo"])

    def save_bearer_token(self, token, request, *args, **kwargs):
        if "refresh_token" in token:
            State.refresh_tokens[token["refresh_token"]] = request.scopes or ["repo"]
        append("tokens", token["access_token"])
        if State.credential_file:
            with State.lock, open(State.credential_file, "w", encoding="utf-8") as file:
                file.write(State.username + ":" + token["access_token"])


def make_server(expires_in):
    return Server(Validator(), token_expires_in=expires_in, token_generator=lambda request: secrets.token_urlsafe(24),
                  refresh_token_generator=lambda request: secrets.token_urlsafe(24))


def configure(state_directory, credential_file, expires_in):
    # oauthlib refuses plain http unless told: the server is on loopback only.
    os.environ["OAUTHLIB_INSECURE_TRANSPORT"] = "1"
    State.directory, State.credential_file = state_directory, credential_file
    State.server = make_server(expires_in)


def respond(method, url, body, headers):
    """(status, headers, body) for /oauth/authorize (GET) and /oauth/token (POST)."""
    path = urlsplit(url).path
    if method == "GET" and path == "/oauth/authorize":
        try:
            scopes, _ = State.server.validate_authorization_request(url, "GET", None, headers)
            append("sign-ins", "signed in")
            answer_headers, answer, status = State.server.create_authorization_response(url, "GET", None, headers, scopes=scopes)
        except Exception as error:  # an invalid request: the test sees it in the status
            return 400, {}, str(error).encode()
    elif method == "POST" and path == "/oauth/token":
        answer_headers, answer, status = State.server.create_token_response(url, "POST", body.decode(), headers)
    else:
        return 404, {}, b"not found\n"
    return status, answer_headers or {}, (answer or "").encode()
