import type { BankQuestion } from "./types";

/** A generic question; `{skill}` in its text and follow-ups is replaced by the skill's name. */
export type GenericTemplate = Omit<BankQuestion, "id"> & { key: string };
