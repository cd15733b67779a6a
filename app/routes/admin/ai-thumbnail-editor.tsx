import { GeneralErrorBoundary } from "~/components/error-screen";
import { requireAdmin } from "~/modules/accounts/guards.server";
import { ComingSoon } from "~/modules/dashboard/components/coming-soon";
import type { Route } from "./+types/ai-thumbnail-editor";

export const meta = () => [{ title: "AI Thumbnail Editor | Shortbeat" }];

export async function loader(args: Route.LoaderArgs) {
  await requireAdmin(args);
  return null;
}

export default function Page() {
  return (
    <ComingSoon title="AI Thumbnail Editor" description="Design thumbnails in the browser." empty="The thumbnail editor opens soon">
      Cropping, text layers and export arrive with the editor.
    </ComingSoon>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
