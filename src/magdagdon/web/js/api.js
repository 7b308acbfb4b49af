// The HTTP API client (API.md): every call answers parsed JSON or throws an ApiError.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (err) {
    throw new ApiError(0, "network", String(err));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data && data.error ? data.error : {};
    throw new ApiError(response.status, error.code ?? String(response.status), error.message ?? "");
  }
  return data;
}

export async function currentGame() {
  try {
    return await call("GET", "/api/games/current");
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null;
    throw err;
  }
}

export const game = (id) => call("GET", `/api/games/${encodeURIComponent(id)}`);
export const newGame = (difficulty) => call("POST", "/api/games", { difficulty });
export const act = (state, action) =>
  call("POST", `/api/games/${encodeURIComponent(state.id)}/actions`, {
    ...action,
    version: state.version,
  });
export const highscores = (difficulty) =>
  call("GET", `/api/highscores?difficulty=${encodeURIComponent(difficulty)}`);
export const player = () => call("GET", "/api/player");
export const setPlayer = (language) => call("PUT", "/api/player", { language });
