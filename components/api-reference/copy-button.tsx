"use client";

import { useState } from "react";

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <span className="row">
      <button type="button" className="btn secondary small" onClick={() => void copy()} aria-label={label}>
        Copy
      </button>
      {state === "copied" && <span className="muted">Copied.</span>}
      {state === "failed" && <span className="muted">Copy failed: select the text and copy it by hand.</span>}
    </span>
  );
}
