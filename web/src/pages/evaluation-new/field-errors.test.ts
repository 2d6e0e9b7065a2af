import { describe, expect, it } from "vitest";
import { ApiError } from "../../api/client";
import { type EvaluationForm, fieldErrorsOf, requestOf, validateForm } from "./field-errors";

const messages = {
  pickSet: "set",
  pickJudge: "judge",
  pickCollection: "collection",
  badUrl: "url",
};
const form: EvaluationForm = {
  name: "",
  question_set_id: "qs",
  collection_id: "c",
  bot: "builtin",
  bot_url: "",
  judges: ["offline"],
};

describe("validateForm", () => {
  it("names each missing or bad field", () => {
    expect(validateForm(form, messages)).toEqual({});
    expect(
      validateForm({ ...form, question_set_id: "", judges: [], collection_id: "" }, messages),
    ).toEqual({
      question_set_id: "set",
      judges: "judge",
      collection_id: "collection",
    });
    expect(
      validateForm({ ...form, bot: "http", collection_id: "", bot_url: "ftp://x" }, messages),
    ).toEqual({ bot_url: "url" });
  });
});

describe("fieldErrorsOf", () => {
  it("places a 400's issues beside their fields", () => {
    const error = new ApiError(400, "invalid_request", "bad", {
      issues: [
        { path: ["bot", "url"], message: "an http(s) URL" },
        { path: ["question_set_id"], message: "a question set id" },
        { path: "collection_id", message: "No such collection" },
      ],
    });
    expect(fieldErrorsOf(error)).toEqual({
      bot_url: "an http(s) URL",
      question_set_id: "a question set id",
      collection_id: "No such collection",
    });
    expect(fieldErrorsOf(new ApiError(409, "x", "busy", {}))).toEqual({ form: "busy" });
  });
});

describe("requestOf", () => {
  it("sends an HTTP bot's URL and leaves out an empty name", () => {
    expect(requestOf({ ...form, bot: "http", bot_url: " http://127.0.0.1:9/bot " })).toEqual({
      question_set_id: "qs",
      collection_id: "c",
      bot: { kind: "http", url: "http://127.0.0.1:9/bot" },
      judges: ["offline"],
    });
  });
});
