"use client";

import { useState } from "react";
import { Field } from "./field";

/**
 * Copies `text` to the clipboard, and says whether it worked (where to copy it by hand otherwise:
 * the field by default, `from="text"` beside a block of text). The button reads `children`, or
 * `label` without them (then `label` is also its name).
 */
export function CopyButton({
  text,
  label,
  children,
  from = "field",
}: {
  text: string;
  label: string;
  children?: string;
  from?: "field" | "text";
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  return (
    <>
      <button
        type="button"
        className="btn secondary small"
        aria-label={children === undefined ? undefined : label}
        onClick={() =>
          void navigator.clipboard.writeText(text).then(
            () => setState("copied"),
            () => setState("failed"),
          )
        }
      >
        {children ?? label}
      </button>
      {state === "copied" && <span className="muted">Copied.</span>}
      {state === "failed" && <span className="muted">{`Copy failed: select the ${from} and copy it by hand.`}</span>}
    </>
  );
}

/**
 * A value shown once (a generated password, a token's HMAC): a read-only field that selects
 * itself on focus, and a button that copies it.
 */
export function CopyField(props: { id: string; label: string; value: string; testId: string; copyLabel: string }) {
  return (
    <>
      <Field id={props.id} label={props.label}>
        <input
          readOnly
          value={props.value}
          className="mono"
          data-testid={props.testId}
          onFocus={(e) => e.currentTarget.select()}
        />
      </Field>
      <div className="actions">
        <CopyButton text={props.value} label={props.copyLabel} />
      </div>
    </>
  );
}
