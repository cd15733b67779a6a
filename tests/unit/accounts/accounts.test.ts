import { describe, expect, it } from "vitest";
import { MESSAGES, PASSWORD_RULES, firstUnmetPasswordRule, isUrlShaped, isValidEmail, signUpSchema, titleForField } from "~/modules/accounts/schema";
import { AUDITED_PATHS, SIDEBAR, canAccess, safeRedirect, sidebarFor } from "~/lib/permissions";
import { checkLength, sanitizeStrict, sanitizeText } from "~/lib/sanitize";
import { viewer } from "../../factories/actors";

describe("password rules", () => {
  it("reports the first unmet rule in the spec's order", () => {
    expect(firstUnmetPasswordRule("")).toBe("At least 8 characters");
    expect(firstUnmetPasswordRule("abcdefgh")).toBe("One uppercase letter");
    expect(firstUnmetPasswordRule("ABCDEFGH")).toBe("One lowercase letter");
    expect(firstUnmetPasswordRule("Abcdefgh")).toBe("One number");
    expect(firstUnmetPasswordRule("Abcdefg1")).toBe("One special character");
    expect(firstUnmetPasswordRule("Abcdef1!")).toBeNull();
    expect(PASSWORD_RULES).toHaveLength(5);
  });
});

describe("e-mail and URL shapes", () => {
  it.each([
    ["a@b.co", true],
    ["first.last@sub.example.org", true],
    ["no-at.example.com", false],
    ["two@@example.com", false],
    ["a@b@c.com", false],
    ["nodot@localhost", false],
    ["trailing@example.", false],
    ["spa ce@example.com", false],
    [`${"a".repeat(243)}@example.com`, false],
  ])("%s → %s", (email, ok) => expect(isValidEmail(email)).toBe(ok));

  it("accepts URL-shaped channel addresses only", () => {
    expect(isUrlShaped("https://www.youtube.com/@me")).toBe(true);
    expect(isUrlShaped("youtube.com/@me")).toBe(true);
    expect(isUrlShaped("javascript:alert(1)")).toBe(false);
    expect(isUrlShaped("not a url")).toBe(false);
  });
});

describe("sign-up schema", () => {
  const base = {
    fullName: "Ann",
    email: "Ann@Example.com",
    password: "Abcdef1!",
    confirmPassword: "Abcdef1!",
    channelUrl: "https://youtube.com/@ann",
    subscribers: "",
    monthlyViews: "10",
    acceptTerms: "on",
  };

  it("requires subscribers and monthly views as whole numbers of 0 or more", () => {
    const r = signUpSchema.safeParse(base);
    expect(r.success).toBe(false);
    const ok = signUpSchema.safeParse({ ...base, subscribers: "0" });
    expect(ok.success && ok.data.subscribers).toBe(0);
    expect(ok.success && ok.data.email).toBe("ann@example.com");
  });

  it("clears the clipper agreement when the clipper option is not ticked", () => {
    const r = signUpSchema.safeParse({ ...base, subscribers: "1", acceptClipperAgreement: "on" });
    expect(r.success && r.data.acceptClipperAgreement).toBe(false);
  });

  it("pairs each field with the spec's toast title", () => {
    expect(titleForField("password")).toBe("Password requirements not met");
    expect(titleForField("confirmPassword")).toBe(MESSAGES.passwordsMismatchTitle);
    expect(titleForField("email")).toBe("Invalid email");
    expect(titleForField("acceptTerms")).toBe("Terms Required");
    expect(titleForField("acceptClipperAgreement")).toBe("Clipper Agreement Required");
    expect(titleForField("fullName", "Full name must be 100 characters or less.")).toBe("Input too long");
  });
});

describe("sanitizers", () => {
  it("removes angle brackets, script prefixes and inline handlers", () => {
    expect(sanitizeText("<script>alert(1)</script>")).toBe("scriptalert(1)/script");
    expect(sanitizeText("javascript:alert(1)")).toBe("alert(1)");
    expect(sanitizeText('x onclick="y"')).toBe('x "y"');
  });

  it("the strict one keeps only word characters, whitespace and @ . , ! ? -, trims and caps at 1000", () => {
    expect(sanitizeStrict("  https://evil.example/path?q=<b>  ")).toEqual({ ok: true, value: "evil.examplepath?qb" });
    expect(sanitizeStrict("Hello, world! (yes) #1")).toEqual({ ok: true, value: "Hello, world! yes 1" });
    const long = sanitizeStrict("a".repeat(1500));
    expect(long.ok && long.value.length).toBe(1000);
  });

  it("the strict one rejects input that matches none of the supplied patterns", () => {
    expect(sanitizeStrict("ABC123", [/^[A-Z0-9]+$/])).toEqual({ ok: true, value: "ABC123" });
    expect(sanitizeStrict("abc-!", [/^[A-Z0-9]+$/])).toEqual({ ok: false, reason: "pattern_mismatch" });
  });

  it("the length check uses the spec's words", () => {
    expect(checkLength("abc", 3, "Name")).toBeNull();
    expect(checkLength("abcd", 3, "Name")).toEqual({
      title: "Input too long",
      description: "Name must be 3 characters or less.",
    });
  });
});

describe("permission matrix and sidebar", () => {
  it("shows approved users the main menu in the spec's order without partner, admin or agency entries", () => {
    const { main, admin } = sidebarFor(viewer());
    expect(main.map((r) => r.path)).toEqual([
      "/dashboard",
      "/music",
      "/channels",
      "/analytics",
      "/referrals",
      "/clipping",
      "/community-chat",
      "/campaigns",
      "/payments",
      "/settings",
      "/profile",
    ]);
    expect(admin).toEqual([]);
  });

  it("shows non-admins who are not approved only settings and profile", () => {
    for (const status of ["pending", "rejected"] as const) {
      expect(sidebarFor(viewer({ approvalStatus: status, isMusicPartner: true, hasActiveAgency: true })).main.map((r) => r.path)).toEqual([
        "/settings",
        "/profile",
      ]);
    }
  });

  it("adds partner, agency and admin entries to those who hold them", () => {
    expect(sidebarFor(viewer({ isMusicPartner: true })).main.map((r) => r.path)).toEqual(expect.arrayContaining(["/music/submit", "/music/submissions"]));
    expect(sidebarFor(viewer({ hasActiveAgency: true })).main.map((r) => r.path)).toContain("/agency-dashboard");
    const adminView = sidebarFor(viewer({ isAdmin: true, approvalStatus: "pending" }));
    expect(adminView.main.map((r) => r.path)).toEqual(expect.arrayContaining(["/ai-thumbnail-editor", "/agency-dashboard"]));
    // Music partners only (spec section 2): an admin sees the partner entries only with the partner flag.
    expect(adminView.main.map((r) => r.path)).not.toContain("/music/submit");
    expect(adminView.main.map((r) => r.path)).not.toContain("/music/submissions");
    expect(sidebarFor(viewer({ isAdmin: true, isMusicPartner: true })).main.map((r) => r.path)).toContain("/music/submit");
    expect(adminView.admin.map((r) => r.path)).toEqual(["/admin", "/chat-management", "/user-retention", "/settings"]);
  });

  it("denies banned viewers everything but public pages", () => {
    for (const route of SIDEBAR) expect(canAccess(viewer({ isBanned: true, isAdmin: true }), route.access)).toBe(false);
    expect(canAccess(null, "public")).toBe(true);
  });

  it("audits the spec's guarded screens: each is a sidebar screen a pending user cannot open and an approved one can", () => {
    const spec = ["/analytics", "/campaigns", "/channels", "/clipping", "/community-chat", "/music/submissions", "/music/submit", "/payments", "/referrals"];
    expect(new Set(AUDITED_PATHS)).toEqual(new Set(spec));
    for (const path of AUDITED_PATHS) {
      const route = SIDEBAR.find((r) => r.path === path && r.section === "main");
      expect(route, path).toBeDefined();
      expect(canAccess(viewer({ approvalStatus: "pending", isMusicPartner: true }), route!.access), `${path} for pending`).toBe(false);
      expect(canAccess(viewer({ isMusicPartner: true }), route!.access), `${path} for approved`).toBe(true);
    }
  });

  it("allows only same-origin paths as redirect targets", () => {
    expect(safeRedirect("/settings")).toBe("/settings");
    expect(safeRedirect("//evil.example")).toBe("/dashboard");
    expect(safeRedirect("/\\evil.example")).toBe("/dashboard");
    expect(safeRedirect("https://evil.example")).toBe("/dashboard");
    expect(safeRedirect(null)).toBe("/dashboard");
  });
});
