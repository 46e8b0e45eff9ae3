"use client";

import { useEffect, useRef, useState, type RefObject } from "react";

/**
 * Keeps a POST form's fields across a sign-in. When a form is submitted its fields
 * (never passwords, HMACs or hidden fields) are written to this tab's sessionStorage;
 * when the action answers, they are dropped. If the session had ended (in the database,
 * or its cookie expired in the browser: proxy.ts), the action answers nothing: the
 * server sends the browser to sign in and back to the page (`next`), and there the form
 * finds its draft and refills itself, once.
 *
 * Without JavaScript there is no draft (the sign-in still returns to the page).
 */
const PREFIX = "ksc-draft:";

/** Fields worth keeping: named text-like controls, not secrets, not hidden plumbing. */
export function draftFields(
  entries: Iterable<[string, string, string]>,
  exclude: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value, type] of entries) {
    if (!name || name.startsWith("$") || exclude.includes(name)) continue;
    if (type === "password" || type === "hidden" || type === "submit" || type === "button" || type === "file") continue;
    out[name] = value;
  }
  return out;
}

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function controlsOf(form: HTMLFormElement): Control[] {
  return Array.from(form.elements).filter(
    (e): e is Control =>
      e instanceof HTMLInputElement || e instanceof HTMLSelectElement || e instanceof HTMLTextAreaElement,
  );
}

function valueOf(c: Control): string {
  return c instanceof HTMLInputElement && c.type === "checkbox" ? (c.checked ? "on" : "") : c.value;
}

/**
 * `formRef`: the form; `key`: which form (one per page); `answered`: changes whenever the
 * action answers (the action state). `onRestore`: for a form whose fields depend on its
 * state (e.g. a mode select that decides which fields exist), receives the draft after the
 * fields on the page were refilled, to render the form with. Returns true when the form was
 * refilled from a draft.
 */
export function useFormDraft(
  formRef: RefObject<HTMLFormElement | null>,
  key: string,
  answered: unknown,
  exclude: readonly string[] = [],
  onRestore?: (values: Record<string, string>) => void,
): boolean {
  const storageKey = PREFIX + key;
  const [restored, setRestored] = useState(false);
  const excludeRef = useRef(exclude);
  const onRestoreRef = useRef(onRestore);

  // Refill once, on mount, from a submission that never got its answer.
  useEffect(() => {
    const form = formRef.current;
    const raw = sessionStorage.getItem(storageKey);
    if (!form || raw === null) return;
    sessionStorage.removeItem(storageKey);
    let values: Record<string, string>;
    try {
      values = JSON.parse(raw) as Record<string, string>;
    } catch {
      return;
    }
    for (const c of controlsOf(form)) {
      if (!(c.name in values)) continue;
      if (c instanceof HTMLInputElement && c.type === "checkbox") c.checked = values[c.name] === "on";
      else if (c instanceof HTMLInputElement && c.type === "radio") c.checked = c.value === values[c.name];
      else c.value = values[c.name] ?? "";
    }
    onRestoreRef.current?.(values);
    // A one-off notice after refilling from storage, which only exists in the browser.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- see above
    setRestored(true);
  }, [formRef, storageKey]);

  // Write the draft when the form is submitted (listening on the document: a form keyed on
  // its last answer is a new element after each one).
  useEffect(() => {
    const onSubmit = (event: SubmitEvent) => {
      const form = formRef.current;
      if (!form || event.target !== form) return;
      const fields = draftFields(
        // A radio group's value is that of its checked radio.
        controlsOf(form)
          .filter((c) => !(c instanceof HTMLInputElement && c.type === "radio" && !c.checked))
          .map(
            (c) =>
              [c.name, valueOf(c), c instanceof HTMLInputElement ? c.type : c.tagName.toLowerCase()] as [
                string,
                string,
                string,
              ],
          ),
        excludeRef.current,
      );
      try {
        sessionStorage.setItem(storageKey, JSON.stringify(fields));
      } catch {
        // Storage full (e.g. a large pasted import): no draft, the submission goes on.
      }
    };
    document.addEventListener("submit", onSubmit, true);
    return () => document.removeEventListener("submit", onSubmit, true);
  }, [formRef, storageKey]);

  // The action answered: the draft has served its purpose.
  useEffect(() => {
    if (answered !== null && answered !== undefined) sessionStorage.removeItem(storageKey);
  }, [answered, storageKey]);

  return restored;
}
