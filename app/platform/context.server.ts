import { createContext } from "react-router";

export type RequestContext = {
  /** CSP nonce of this response; every inline script carries it. */
  nonce: string;
  ctx: ExecutionContext;
  /** The signed-in user of this request, looked up once (see session.server.ts). */
  session?: Promise<import("~/modules/accounts/session.server").SessionUser | null>;
};

export const requestContext = createContext<RequestContext>();
