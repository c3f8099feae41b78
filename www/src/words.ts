// A validation issue in words, from its code and details, with the form's own label: wording only, the rules stay in the SDK.
import type { Issue } from "svc-sdk";

/** What the form says about the place an issue belongs to. */
export type Place = {
  label: string;
  /** For a list: the name of one member and of several ("field", "fields"). */
  one?: string;
  many?: string;
  /** The words of an allowed value, e.g. a select's option text. */
  choice?: (value: string) => string;
  /** The field holds a date: a bound with a time is shown as its date. */
  dateOnly?: boolean;
};

const TYPES: Record<string, string> = {
  number: "a number",
  integer: "a whole number",
  string: "text",
  boolean: "yes or no",
  array: "a list",
  object: "a group of fields",
};

const FORMATS: Record<string, string> = {
  date: "must be a date",
  "date-time": "must be a date and time",
  duration: "must be hours and minutes (hh:mm)",
  alphanumeric: "may contain only letters and digits",
  url: "must be a web address starting with http:// or https://",
  "file type": "is not a file type the service accepts",
  "{module_api_name}.{operation}": "must name a module and an operation",
};

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:(\d{2})(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const numbers = new Intl.NumberFormat(undefined, { maximumFractionDigits: 20 });
const dates = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeZone: "UTC" });
const minutes = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const seconds = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

const plural = (n: number | string | undefined, one: string, many: string) => `${bound(n) ?? "?"} ${n === 1 ? one : many}`;

/** A bound as a reader writes it: a number, a date, or a moment in local time (to the second only when it has seconds). */
export function bound(value: number | string | undefined, dateOnly = false): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number") return numbers.format(value);
  const day = DATE.exec(value);
  if (day) return dates.format(new Date(Date.UTC(+day[1], +day[2] - 1, +day[3])));
  const moment = DATE_TIME.exec(value);
  if (moment && !Number.isNaN(Date.parse(value))) {
    if (dateOnly) return bound(moment[1]);
    return (moment[3] && moment[3] !== "00" ? seconds : minutes).format(new Date(value));
  }
  return value;
}

const isMoment = (value: number | string | undefined) => typeof value === "string" && (DATE.test(value) || DATE_TIME.test(value));

function range(issue: Issue, place: Place): string {
  const [low, high] = [bound(issue.minimum, place.dateOnly), bound(issue.maximum, place.dateOnly)];
  const moment = isMoment(issue.minimum) || isMoment(issue.maximum);
  if (low !== undefined && high !== undefined) return `must be between ${low} and ${high}`;
  if (low !== undefined) return moment ? `must be on or after ${low}` : `must be at least ${low}`;
  if (high !== undefined) return moment ? `must be on or before ${high}` : `must be at most ${high}`;
  return "is out of range";
}

/** The sentence a form shows for an issue at a place it has labelled. */
export function sentence(issue: Issue, place: Place): string {
  const { label } = place;
  switch (issue.code) {
    case "required":
      return place.one ? `${label} needs at least one ${place.one}` : `${label} is required`;
    case "invalid_type":
      return `${label} must be ${TYPES[issue.expected ?? ""] ?? issue.expected ?? "of another kind"}`;
    case "too_long":
      return `${label} may have at most ${plural(issue.maximum, "character", "characters")}`;
    case "too_short":
      return `${label} needs at least ${plural(issue.minimum, "character", "characters")}`;
    case "out_of_range":
      return `${label} ${range(issue, place)}`;
    case "invalid_value":
      return issue.allowed?.length ? `${label} must be one of: ${issue.allowed.map(place.choice ?? String).join(", ")}` : `${label} has a value that is not allowed`;
    case "invalid_format":
      return `${label} ${FORMATS[issue.format ?? ""] ?? "is not in the expected form"}`;
    case "too_many":
      return `${label} may have at most ${plural(issue.maximum, place.one ?? "entry", place.many ?? "entries")}`;
    case "not_allowed":
      return `${label} does not apply with these choices`;
    default:
      return (issue as Issue).message;
  }
}
