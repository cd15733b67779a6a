import { GeneralErrorBoundary } from "~/components/error-screen";
import { actorOf } from "~/modules/accounts/accounts.server";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { ThumbnailEditor } from "~/modules/thumbnails/editor/editor";
import { editorPage } from "~/modules/thumbnails/thumbnails.server";
import { domainLoader } from "~/platform/http.server";
import { PageHeader } from "~/ui/page-header";
import type { Route } from "./+types/ai-thumbnail-editor";
// Toasts at the bottom on this page: the editor's Undo/Redo toolbar stays uncovered (decision 0188).
import "~/modules/thumbnails/editor/toasts.css";

// /ai-thumbnail-editor (issue 19, admins): the thumbnail editor. Its code (and, on first use, the
// background-removal model in a Web Worker) loads only on this route; its JSON endpoints are
// /ai-thumbnail-editor/api (routes/admin/thumbnails-api.ts).

export const meta = () => [{ title: "AI Thumbnail Editor | Shortbeat" }];

export const loader = domainLoader(async (args: Route.LoaderArgs) => {
  const admin = await requireAdmin(args);
  return editorPage(actorOf(admin));
});

export default function AiThumbnailEditor({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-4">
      <PageHeader title="AI Thumbnail Editor" description="Design thumbnails in the browser: crop, layers, text, background removal, export." />
      <ThumbnailEditor projects={loaderData.projects} exports={loaderData.exports} ai={loaderData.ai} />
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
