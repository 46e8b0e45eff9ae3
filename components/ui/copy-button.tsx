"use client";

import { useState } from "react";

/** Copies `text` to the clipboard, and says whether it worked (a field to copy by hand otherwise). */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <>
      <button
        type="button"
        className="btn secondary small"
        onClick={() =>
          void navigator.clipboard.writeText(text).then(
            () => setState("copied"),
            () => setState("failed"),
          )
        }
      >
        {label}
      </button>
      {state === "copied" && <span className="muted">Copied.</span>}
      {state === "failed" && <span className="muted">Copy failed: select the field and copy it by hand.</span>}
    </>
  );
}
