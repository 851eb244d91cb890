// Upload a save to step through it: the server replays it through the engine and answers a replay id.
import { request } from "./api.js";

const input = document.getElementById("save-file");
const problem = document.getElementById("upload-error");

input.addEventListener("change", async () => {
  problem.textContent = "";
  const file = input.files && input.files[0];
  if (!file) return;
  let save;
  try {
    save = JSON.parse(await file.text());
  } catch {
    problem.textContent = `${file.name} is not a JSON save`;
    return;
  }
  try {
    const started = await request("POST", "/api/replays", save);
    window.location.href = `/replay/${started.replay_id}`;
  } catch (error) {
    problem.textContent = error.message;
  }
});
