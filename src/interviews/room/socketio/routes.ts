import { Hono } from "hono";
import type { AppBindings } from "../../../platform/http/context";
import { randomBase62 } from "../../../platform/lib/random";
import { engineError, SID_SHAPE } from "./wire";

/**
 * `/socket.io/`: the Engine.IO endpoint of socket.io-client 4 (docs/live-room.md). A handshake
 * (no `sid`) opens a new session object under a fresh random id; every later request of the
 * session (polls, posts, the WebSocket upgrade) goes to that object by its `sid`. The namespace,
 * and with it the interview, is known only later, inside the session.
 */
export const socketIoRoutes = new Hono<AppBindings>({ strict: false });

socketIoRoutes.on(["GET", "POST"], "/socket.io", async (c) => {
	const params = new URL(c.req.url).searchParams;
	if (params.get("EIO") !== "4") return engineError(5);
	const transport = params.get("transport");
	if (transport !== "polling" && transport !== "websocket") return engineError(0);
	const sid = params.get("sid");
	if (sid === null && c.req.method !== "GET") return engineError(2);
	if (sid !== null && !SID_SHAPE.test(sid)) return engineError(1);
	const name = sid ?? randomBase62(24);
	const response = await c.env.SOCKET_IO.get(c.env.SOCKET_IO.idFromName(name)).fetch(c.req.raw);
	if (response.status === 101) return response;
	// Re-wrapped so the app's middleware may add its headers; readable from any origin, as the
	// plain channel is (a session's id is its only key).
	const wrapped = new Response(response.body, response);
	wrapped.headers.set("Access-Control-Allow-Origin", "*");
	return wrapped;
});
