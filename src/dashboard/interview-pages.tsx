import { Hono } from "hono";
import { interviewBulkPages } from "./interview-bulk";
import { owned } from "./interview-common";
import { interviewCreatePages } from "./interview-create";
import { interviewDetailPages } from "./interview-detail";
import type { DashBindings } from "./session";

export const interviewPages = new Hono<DashBindings>();

// In this order: `/new` and `/bulk` are matched before `/:id`.
interviewPages.route("/", interviewCreatePages);
interviewPages.route("/", interviewBulkPages);
interviewPages.route("/", interviewDetailPages);

export { owned };
