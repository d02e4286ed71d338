/** The name of the cookie that carries a session's token (HttpOnly; identity sets it and reads it back). */
export const SESSION_COOKIE = 'seatlink_session';
