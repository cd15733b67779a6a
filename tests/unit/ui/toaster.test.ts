import { beforeEach, describe, expect, it } from "vitest";
import { pageShown, shownToasts, toast } from "~/ui/toaster";

// Issue 42 §4 (docs/decisions/0315): an error toast stays until it is dismissed, and only on the
// page it was about; other toasts go by themselves.

beforeEach(() => {
  toast.dismiss();
  pageShown("/settings");
});

describe("the toast store", () => {
  it("keeps an error until it is dismissed, and lets a success go by itself", () => {
    toast.error("Incorrect password");
    toast.success("Profile saved");
    const [error, success] = shownToasts();
    expect(error?.duration).toBe(Number.POSITIVE_INFINITY);
    expect(success?.duration).toBe(4000);
  });

  it("takes an earlier page's errors away on a navigation, and keeps the new page's message", () => {
    toast.error("Incorrect password");
    toast.success("Copied");
    pageShown("/auth");
    toast.success("Account deleted");
    expect(shownToasts().map((t) => t.title)).toEqual(["Copied", "Account deleted"]);
  });

  it("keeps an error shown on the page it is about when that page re-renders", () => {
    toast.error("Could not submit");
    pageShown("/settings");
    expect(shownToasts().map((t) => t.title)).toEqual(["Could not submit"]);
  });
});
