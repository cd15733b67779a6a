import { createContext } from "react-router";

export type RequestContext = {
  /** CSP nonce of this response; every inline script carries it. */
  nonce: string;
  ctx: ExecutionContext;
};

export const requestContext = createContext<RequestContext>();
