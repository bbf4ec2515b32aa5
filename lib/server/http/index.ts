/** HTTP edge helpers: typed errors and the route wrapper that maps them. */
export * from './errors';
export { route, errorResponse, isFormPost, type RouteHandler, type RouteInput, type RouteSpec, type RouteContext } from './route';
export { redirect, serializeCookie, readCookie, type CookieOptions } from './responses';
