import { renderToString } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { ConfirmDialog } from "~/ui/confirm-dialog";
import { Field } from "~/ui/field";
import { Select } from "~/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/ui/tabs";
import { TextArea } from "~/ui/textarea";

// The UI kit as the server renders it (what a browser without JavaScript gets, and what hydration
// must match): names, roles and the links between labels, hints and errors.

const html = (node: React.ReactNode) => renderToString(<MemoryRouter>{node}</MemoryRouter>);
const attr = (markup: string, name: string) => new RegExp(`${name}="([^"]+)"`).exec(markup)?.[1];

describe("ConfirmDialog (the browser's own <dialog>)", () => {
  const markup = html(
    <ConfirmDialog title="Ban: Bo Banned" cancelTo="/admin">
      <form method="post">
        <textarea name="reason" aria-label="Reason" />
        <button type="submit">Confirm ban</button>
      </form>
    </ConfirmDialog>,
  );

  it("is in the server's HTML as a dialog named by its title", () => {
    // Open in the server's HTML (works without JavaScript); made modal on the client.
    expect(markup).toMatch(/<dialog open=""[^>]*aria-labelledby="/);
    const labelledBy = attr(markup, "aria-labelledby");
    expect(labelledBy).toBeTruthy();
    expect(markup).toMatch(new RegExp(`<h2[^>]*id="${labelledBy}"[^>]*>Ban: Bo Banned</h2>`));
  });

  it("keeps its look: the backdrop and the panel", () => {
    expect(markup).toContain("fixed inset-0 z-50 flex items-end justify-center bg-slate-900/50");
    expect(markup).toContain("max-h-[90vh] w-full max-w-md overflow-y-auto rounded-xl");
    expect(markup).toContain("Confirm ban");
  });
});

describe("fields", () => {
  it("a text field links its label, hint and error", () => {
    const markup = html(<Field label="Email" name="email" error="Enter a valid e-mail address." hint="We never share it." />);
    const id = attr(markup, "id");
    expect(markup).toContain(`for="${id}"`);
    expect(markup).toContain('aria-invalid="true"');
    expect(attr(markup, "aria-describedby")).toBe(`${id}-error ${id}-hint`);
    expect(markup).toContain(`id="${id}-error"`);
  });

  it("a field without an error is not marked invalid and has no description", () => {
    const markup = html(<Field label="Name" name="name" />);
    expect(markup).not.toContain("aria-invalid");
    expect(markup).not.toContain("aria-describedby");
  });

  it("a textarea and a select are labelled the same way", () => {
    for (const markup of [
      html(<TextArea label="Reason" name="reason" error="Required" />),
      html(<Select label="Status" name="status" options={[{ value: "a", label: "A" }]} error="Required" />),
    ]) {
      const id = attr(markup, "id");
      expect(markup).toContain(`for="${id}"`);
      expect(attr(markup, "aria-describedby")).toBe(`${id}-error`);
    }
  });
});

describe("Tabs (on Radix tabs)", () => {
  it("renders a tablist whose selected tab controls its panel", () => {
    const markup = html(
      <Tabs defaultValue="one">
        <TabsList aria-label="Views">
          <TabsTrigger value="one">One</TabsTrigger>
          <TabsTrigger value="two">Two</TabsTrigger>
        </TabsList>
        <TabsContent value="one">First panel</TabsContent>
        <TabsContent value="two">Second panel</TabsContent>
      </Tabs>,
    );
    expect(markup).toContain('role="tablist"');
    expect(markup.match(/role="tab"/g)).toHaveLength(2);
    expect(markup).toMatch(/aria-selected="true"[^>]*>One</);
    expect(markup).toContain("First panel");
    expect(markup).not.toContain("Second panel");
  });
});
