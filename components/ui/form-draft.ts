"use client";

import { useEffect, useRef, useState, type RefObject } from "react";

/**
 * Keeps a POST form's fields across a sign-in. When a form is submitted its fields
 * (never passwords, HMACs or hidden fields) are written to this tab's sessionStorage;
 * when the action answers, they are dropped. If the session had ended, the action
 * answers nothing: the server sends the browser to sign in and back to the page
 * (`next`), and there the form finds its draft and refills itself, once.
 *
 * Without JavaScript there is no draft (the sign-in still returns to the page).
 */
const PREFIX = "ksc-draft:";

/** Fields worth keeping: named text-like controls, not secrets, not hidden plumbing. */
export function draftFields(entries: Iterable<[string, string, string]>, exclude: readonly string[] = []): Record<string, string> {
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
  return Array.from(form.elements).filter((e): e is Control => e instanceof HTMLInputElement || e instanceof HTMLSelectElement || e instanceof HTMLTextAreaElement);
}

function valueOf(c: Control): string {
  return c instanceof HTMLInputElement && c.type === "checkbox" ? (c.checked ? "on" : "") : c.value;
}

/**
 * `formRef`: the form; `key`: which form (one per page); `answered`: changes whenever the
 * action answers (the action state). Returns true when the form was refilled from a draft.
 */
export function useFormDraft(formRef: RefObject<HTMLFormElement | null>, key: string, answered: unknown, exclude: readonly string[] = []): boolean {
  const storageKey = PREFIX + key;
  const [restored, setRestored] = useState(false);
  const excludeRef = useRef(exclude);

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
      else c.value = values[c.name] ?? "";
    }
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a one-off notice after refilling from storage, which only exists in the browser
    setRestored(true);
  }, [formRef, storageKey]);

  // Write the draft when the form is submitted.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const onSubmit = () => {
      const fields = draftFields(
        controlsOf(form).map((c) => [c.name, valueOf(c), c instanceof HTMLInputElement ? c.type : c.tagName.toLowerCase()] as [string, string, string]),
        excludeRef.current,
      );
      sessionStorage.setItem(storageKey, JSON.stringify(fields));
    };
    form.addEventListener("submit", onSubmit);
    return () => form.removeEventListener("submit", onSubmit);
  }, [formRef, storageKey]);

  // The action answered: the draft has served its purpose.
  useEffect(() => {
    if (answered !== null && answered !== undefined) sessionStorage.removeItem(storageKey);
  }, [answered, storageKey]);

  return restored;
}
