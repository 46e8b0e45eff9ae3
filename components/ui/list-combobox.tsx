"use client";

import { useState, type InputHTMLAttributes } from "react";
import { Combobox } from "@/components/ui/combobox";

/**
 * The suggestions for a comma-separated list as typed so far: each not yet listed, after what is typed up to the last
 * comma.
 */
export function listSuggestions(suggestions: readonly string[], typed: string): string[] {
  const cut = typed.lastIndexOf(",");
  if (cut < 0) return [...suggestions];
  const head = `${typed.slice(0, cut + 1).trimEnd()} `;
  const listed = new Set(
    typed
      .slice(0, cut)
      .split(",")
      .map((s) => s.trim()),
  );
  return suggestions.filter((s) => !listed.has(s)).map((s) => head + s);
}

/**
 * A Combobox for a comma-separated list (e.g. a token's renewers): after a comma it
 * offers the next entry, keeping what is already typed. Use inside a `Field`, which sets `id`.
 */
export function ListCombobox({
  suggestions,
  defaultValue,
  onChange,
  ...input
}: { id?: string; suggestions: readonly string[]; defaultValue?: string } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "list" | "defaultValue"
>) {
  const [typed, setTyped] = useState(defaultValue ?? "");
  return (
    <Combobox
      {...input}
      defaultValue={defaultValue}
      suggestions={listSuggestions(suggestions, typed)}
      onChange={(event) => {
        setTyped(event.target.value);
        onChange?.(event);
      }}
    />
  );
}
