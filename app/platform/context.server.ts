import { createContext } from "react-router";

export type RequestContext = {
  /** CSP nonce of this response; every inline script carries it. */
  nonce: string;
  /** This request's id (X-Request-Id header, every error log line, the error screen). */
  requestId: string;
  ctx: ExecutionContext;
  /**
   * The signed-in user of this request, looked up once. The platform does not know the accounts
   * module's types; accounts/session-request.server.ts stores and reads it as its own SessionUser.
   */
  session?: Promise<unknown>;
  /** Set-Cookie headers for this request's response, whichever it is (cookies.server.ts expireOnResponse). */
  responseCookies?: string[];
};

export const requestContext = createContext<RequestContext>();
