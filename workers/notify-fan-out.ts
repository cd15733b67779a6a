import { WorkerEntrypoint } from "cloudflare:workers";
import { deliverSlice, type PushItem } from "../app/modules/notifications/notifications.server";

// One slice of a notification fan-out, delivered in an invocation of its own (docs/decisions/0088).
// createNotification reaches it through the Worker's loopback binding (`exports.NotifyFanOut`,
// automatic for a top-level WorkerEntrypoint export): each call is a new invocation with its own
// subrequest budget, so a broadcast to a few thousand users never sends more than
// PUSHES_PER_INVOCATION Durable Object calls from one invocation. It is not reachable from the
// internet (only the default export answers HTTP) and has no binding in wrangler.toml.
export class NotifyFanOut extends WorkerEntrypoint<Env> {
  /** Pushes each item to its user's object; returns how many sockets got one. */
  async deliver(pushes: PushItem[]): Promise<number> {
    return deliverSlice(pushes);
  }
}
