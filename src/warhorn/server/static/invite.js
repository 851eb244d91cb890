// An invite link's page: shows which seat it hands out; "Take this seat" claims it (once) and opens the
// seat's page. The token comes only in the claim's answer, so only this browser holds it.
import { request, el, rememberedLinks, rememberLinks } from "./api.js";

const main = document.getElementById("invite");
const code = main.dataset.invite;
const $ = (id) => document.getElementById(id);

function showClaimed() {
  $("invite-title").textContent = "This invite was claimed already";
  $("invite-text").textContent = "Someone opened it and took the seat. If it was not you, ask the game's creator.";
  $("claim").hidden = true;
}

async function claim() {
  $("claim").disabled = true;
  try {
    const seat = await request("POST", `/api/invites/${encodeURIComponent(code)}/claim`);
    const mine = (rememberedLinks()[seat.game_id] || []).filter((s) => s.seat !== seat.seat);
    rememberLinks(seat.game_id, [...mine, { seat: seat.seat, token: seat.token }]);
    window.location.replace(seat.link);
  } catch (error) {
    if (error.status === 409) showClaimed();
    else $("invite-error").textContent = error.message;
    $("claim").disabled = false;
  }
}

async function show() {
  try {
    const invite = await request("GET", `/api/invites/${encodeURIComponent(code)}`);
    if (invite.status === "claimed") return showClaimed();
    $("invite-title").textContent = `Seat ${invite.seat} of a ${invite.game} game (${invite.game_id})`;
    $("invite-text").textContent =
      "Taking the seat gives this browser its private link; nobody else (not the game's creator) receives it.";
    $("claim").hidden = false;
    $("claim").addEventListener("click", claim);
  } catch (error) {
    $("invite-title").textContent = "No such invite";
    $("invite-error").textContent = error.message;
  }
}

show();
