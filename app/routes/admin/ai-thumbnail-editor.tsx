import { GeneralErrorBoundary } from "~/components/error-screen";
import { EmptyState, PageHeader } from "~/components/page";
import { requireAdmin } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/ai-thumbnail-editor";

export const meta = () => [{ title: "AI Thumbnail Editor | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <>
      <PageHeader title="AI Thumbnail Editor" description="Design thumbnails in the browser." />
      <EmptyState title="The thumbnail editor opens soon">
        <p>Cropping, text layers and export arrive with the editor.</p>
      </EmptyState>
    </>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
