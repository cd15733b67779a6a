import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { devToolsBuilt } from "./dev/build-mode";

// The development tools (/dev/*) exist only in the builds whose Vite mode asks for them
// (`development`, `test`, `devtools`); the production build has neither the routes nor their modules.
const DEV_ROUTES = devToolsBuilt(import.meta.env.MODE);

export default [
  // ---- Public ----------------------------------------------------------------------------
  index("routes/_public/landing.tsx"),
  route("terms-of-service", "routes/_public/terms-of-service.tsx"),
  route("privacy-policy", "routes/_public/privacy-policy.tsx"),
  route("music-partner-terms", "routes/_public/music-partner-terms.tsx"),
  route("sitemap.xml", "routes/_public/sitemap.ts"),
  route("campaigns/:slug", "routes/_public/campaign.tsx"),
  // Licence verification (issue 13): public, before the ":agencySlug/…" patterns ('licences' is a reserved slug).
  route("licences/:code", "routes/_public/licence.tsx"),

  // ---- Accounts (issue 3) ------------------------------------------------------------------
  route("auth", "routes/_auth/auth.tsx"),
  route("auth/sign-out", "routes/_auth/sign-out.ts"),
  route("auth/forgot-password", "routes/_auth/forgot-password.tsx"),
  route("auth/reset-password", "routes/_auth/reset-password.tsx"),
  route("auth/verify-email", "routes/_auth/verify-email.tsx"),
  // One-click unsubscribe of optional e-mail (issue 28; the path is UNSUBSCRIBE_PATH in app/platform/headers.server.ts).
  route("email/unsubscribe", "routes/_auth/email-unsubscribe.tsx"),
  // Deleting an account (issue 28): the grace period's page, and the data export download.
  route("account-deletion", "routes/_auth/account-deletion.tsx"),
  route("settings/export", "routes/_app/settings-export.ts"),
  route("admin/users/:id/export", "routes/admin/user-export.ts"),
  route("auth/google", "routes/_auth/google.ts"),
  route("auth/google/callback", "routes/_auth/google-callback.ts"),
  route("pending-approval", "routes/_auth/pending-approval.tsx"),
  // A new Google account's sign-up details and terms, before it waits for approval (docs/decisions/0324).
  route("auth/finish-sign-up", "routes/_auth/finish-sign-up.tsx"),
  route("api/session", "routes/api/session.ts"),
  route("api/csp-report", "routes/api/csp-report.ts"),

  // ---- Agencies and recovery (issue 5) --------------------------------------------------------
  route("admin-recovery", "routes/agency/admin-recovery.tsx"),
  route("agency/signup", "routes/agency/application-signup.tsx", { id: "agency-signup-alias" }),
  route("agency-application-signup", "routes/agency/application-signup.tsx"),
  route("agency-application-status", "routes/agency/application-status.tsx"),
  route("agency-invitation", "routes/agency/agency-invitation.tsx"),
  route("music-signup", "routes/agency/music-signup.tsx"),
  route(":agencySlug/signup", "routes/agency/agency-creator-signup.tsx"),
  route(":agencySlug/music-signup", "routes/agency/music-signup.tsx", { id: "agency-music-signup" }),

  // ---- Notifications and media (issue 4) -----------------------------------------------------
  route("api/notifications", "routes/api/notifications.ts"),
  // ---- Community chat (issue 17): history, catch-up, sends; the socket is answered in workers/app.ts
  route("api/chat", "routes/api/chat.ts"),
  route("media/avatars/*", "routes/api/media-avatars.ts"),
  route("media/signed/*", "routes/api/media-signed.ts"),
  route("api/analytics.csv", "routes/api/analytics-csv.ts"),

  // ---- Music previews (issue 13): resource routes, outside the shell layout ------------------
  route("music/audio/:id", "routes/_app/music.audio.$id.ts"),
  route("music/cover/:id", "routes/_app/music.cover.$id.ts"),
  route("music/licences/:code/download", "routes/_app/music-licence-download.ts"),
  route("music/licences/:code/certificate.pdf", "routes/_app/music-licence-pdf.ts"),
  // ---- Payments (issue 14): CSV downloads, outside the shell layout ----------------------------
  route("payments/statement.csv", "routes/_app/payments-csv.ts"),
  route("admin/payments/batches/:batch", "routes/admin/payments-batch-csv.ts"),
  // A revenue report of any size, in parts into R2, read by a Workflow (issue 45 §1, decision 0334).
  route("admin/payments/report", "routes/admin/payments-report.ts"),
  route("admin/payments/report/:id/problems.csv", "routes/admin/payments-report-problems.ts"),
  // ---- Payouts through Stripe (issue 29): the onboarding's return and refresh, Stripe's webhooks -----
  route("payments/payout-account/:step", "routes/_app/payout-account.ts"),
  route("api/stripe/webhook", "routes/api/stripe-webhook.ts"),
  // ---- Thumbnail editor (issue 19): its JSON endpoints, outside the shell layout --------------------
  route("ai-thumbnail-editor/api", "routes/admin/thumbnails-api.ts"),
  // ---- Clipping (issue 16): source uploads in parts, downloads through signed URLs -------------
  route("clipping/upload", "routes/_app/clipping-upload.ts"),
  route("clipping/sources/:id/download", "routes/_app/clipping-download.ts"),
  route("clipping/files/*", "routes/_app/clipping-file.ts"),
  // ---- Growth (issue 18): the referral QR code and the inactive users' CSV ------------------------
  route("referrals/qr.svg", "routes/_app/referrals-qr.ts"),
  route("referrals/qr.png", "routes/_app/referrals-qr-png.ts"),
  route("user-retention/inactive.csv", "routes/admin/user-retention-csv.ts"),

  // ---- Signed-in shell ----------------------------------------------------------------------
  layout("routes/_app/layout.tsx", [
    route("dashboard", "routes/_app/dashboard.tsx"),
    route("music", "routes/_app/music.tsx"),
    route("music/similar/:id", "routes/_app/music-similar.tsx"),
    route("music/submit", "routes/_app/music-submit.tsx"),
    route("music/submissions", "routes/_app/music-submissions.tsx"),
    route("music/submissions/:id/resubmit", "routes/_app/music-resubmit.tsx"),
    route("music/licences", "routes/_app/music-licences.tsx"),
    route("music/licences/:code", "routes/_app/music-licence.tsx"),
    route("campaigns", "routes/_app/campaigns.tsx"),
    route("channels", "routes/_app/channels.tsx"),
    route("channels/link/:platform", "routes/_app/channels-link.ts"),
    route("analytics", "routes/_app/analytics.tsx"),
    route("referrals", "routes/_app/referrals.tsx"),
    route("clipping", "routes/_app/clipping.tsx"),
    route("community-chat", "routes/_app/community-chat.tsx"),
    route("payments", "routes/_app/payments.tsx"),
    route("settings", "routes/_app/settings.tsx"),
    route("profile", "routes/_app/profile.tsx"),
    route("agency-dashboard", "routes/agency/agency-dashboard.tsx"),

    // ---- Admin area (admins only): inside the same shell, so that moving between app and admin
    // pages keeps one shell (its focus, its notification socket) instead of building another.
    layout("routes/admin/layout.tsx", [
      route("admin", "routes/admin/users.tsx"),
      route("admin/audit-log", "routes/admin/audit-log.tsx"),
      route("admin/settings", "routes/admin/settings.tsx"),
      route("admin/system-status", "routes/admin/system-status.tsx"),
      route("admin/agencies", "routes/admin/agencies.tsx"),
      route("admin/verifications", "routes/admin/verifications.tsx"),
      route("admin/music", "routes/admin/music.tsx"),
      route("admin/broadcast", "routes/admin/broadcast.tsx"),
      route("admin/payments", "routes/admin/payments.tsx"),
      route("admin/campaigns", "routes/admin/campaigns.tsx"),
      route("chat-management", "routes/admin/chat-management.tsx"),
      route("user-retention", "routes/admin/user-retention.tsx"),
      route("ai-thumbnail-editor", "routes/admin/ai-thumbnail-editor.tsx"),
    ]),
  ]),

  // ---- Development tools (app/dev/build-mode.ts; 404 at run time unless DEV_TOOLS=1) -------------
  ...(DEV_ROUTES
    ? [
        route("dev/throw", "routes/dev/throw.tsx"),
        route("dev/mailbox", "routes/dev/mailbox.tsx"),
        route("dev/mailbox/:id", "routes/dev/mailbox-message.ts"),
        route("dev/sms/*", "routes/dev/sms.ts"),
        route("dev/factory", "routes/dev/factory.ts"),
        route("dev/payout-day", "routes/dev/payout-day.ts"),
        route("dev/revenue-report", "routes/dev/revenue-report.ts"),
        route("dev/bench/password", "routes/dev/bench.ts"),
        route("dev/oauth/authorize", "routes/dev/oauth-authorize.tsx"),
        route("dev/oauth/*", "routes/dev/oauth.ts"),
        route("dev/social/*", "routes/dev/social.ts"),
        route("dev/stripe", "routes/dev/stripe.tsx"),
        route("dev/stripe/onboarding/:link", "routes/dev/stripe-onboarding.tsx"),
        route("dev/stripe/v1/*", "routes/dev/stripe-api.ts"),
      ]
    : []),

  // Anything else: the not-found page with HTTP 404.
  route("*", "routes/_public/not-found.tsx"),
] satisfies RouteConfig;
