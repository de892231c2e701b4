/**
 * The dashboard's one script, served as a file (`/dashboard/assets/dashboard.js`) so that its
 * pages can run under a Content-Security-Policy that allows no inline script: an escaping slip in
 * a page cannot run script (docs/dashboard.md, "Security model"). Each part acts only where its
 * page's elements are; the live view reads its interview from the page's data attributes.
 */

/**
 * Every page. Copy buttons: `data-copy="#id"` copies that element's text. A form with `data-confirm` asks
 * first; one with `data-once` (a form that creates something) disables its buttons once sent, and
 * enables them again when the page is shown again (the back button); the server refuses a second
 * send of it anyway (form-once.ts). Its `form_id` is kept in the page's history entry when it is
 * sent, and put back when the browser returns to that entry: browsers load such a page again
 * (it is `no-store`) and refill the typed fields, not the hidden id, which would otherwise be new.
 * A UTC time input marked `data-utc` shows its time in the browser's own time zone, as it is
 * typed, in its `LocalTimeHint`.
 */
const COMMON = `(function(){document.addEventListener("click",function(e){var b=e.target.closest("[data-copy]");if(!b)return;var t=document.querySelector(b.getAttribute("data-copy"));if(!t)return;var v=t.value!==undefined?t.value:t.textContent;navigator.clipboard&&navigator.clipboard.writeText(v).then(function(){b.textContent="Copied";setTimeout(function(){b.textContent="Copy"},2000)},function(){});});
document.addEventListener("submit",function(e){var f=e.target;var m=f.getAttribute("data-confirm");if(m&&!window.confirm(m)){e.preventDefault();}});
function onceIds(){return [].slice.call(document.querySelectorAll("form[data-once]")).map(function(f){return f.querySelector("[name=form_id]");});}
document.addEventListener("submit",function(e){var f=e.target;if(e.defaultPrevented||!f.hasAttribute("data-once"))return;var k=[].indexOf.call(document.querySelectorAll("form[data-once]"),f),i=onceIds()[k];if(i){var s=Object.assign({},history.state);s["form_id "+k]=i.value;try{history.replaceState(s,"");}catch(x){}}setTimeout(function(){f.querySelectorAll("[type=submit]").forEach(function(b){b.disabled=true;});},0);});
(function(){var s=history.state;if(!s)return;onceIds().forEach(function(i,k){var v=s["form_id "+k];if(i&&typeof v==="string")i.value=v;});})();
window.addEventListener("pageshow",function(){document.querySelectorAll("form[data-once] [type=submit]").forEach(function(b){b.disabled=false;});});
document.addEventListener("click",function(e){var b=e.target.closest("[data-print]");if(b)window.print();});
function utcHint(i){var h=document.getElementById(i.id+"-local");if(!h)return;var d=i.value?new Date(i.value+"Z"):null;h.textContent=d&&!isNaN(d.getTime())?"In your time zone ("+Intl.DateTimeFormat().resolvedOptions().timeZone+"): "+d.toLocaleString([],{dateStyle:"medium",timeStyle:"short"}):"";}
document.addEventListener("input",function(e){if(e.target.matches&&e.target.matches("[data-utc]"))utcHint(e.target);});
document.querySelectorAll("[data-utc]").forEach(utcHint);})();`;

/**
 * The invitation page: fills the code from the link's fragment (`#<token>`), which browsers never
 * send: the token is in no request line, so in no request log. The fragment is then dropped from
 * the address bar. Only on that page (its `#token` input).
 */
const INVITATION = `(function(){var f=document.getElementById("token");if(!f)return;var h=location.hash.slice(1);
 if(h){history.replaceState(null,"",location.pathname+location.search);}
 if(!f.value&&/^[0-9A-Za-z]{1,100}$/.test(h)){f.value=h;var w=document.getElementById("token-field");if(w)w.hidden=true;}
})();`;

/**
 * The live view of an in-progress interview (src/dashboard/live.tsx): asks for an observer ticket
 * with the page's form token, opens the observer WebSocket, asks for the room's history (`resync`
 * from 0) and shows the interview's status, progress and end, and every question asked, in order.
 */
const LIVE = `(function(){
 var sec=document.getElementById("live");if(!sec)return;
 var box=document.getElementById("live-log"),state=document.getElementById("live-state"),facts=document.getElementById("live-facts"),seen={};
 var STATUS={scheduled:"Scheduled",in_progress:"In progress",completed:"Completed",cancelled:"Cancelled"};
 function put(id,t){document.getElementById(id).textContent=t;}
 function utc(v){return v?v.replace("T"," ").slice(0,16)+" UTC":"-";}
 function ask(q){if(!q||seen[q.id])return;seen[q.id]=true;
  var li=document.createElement("li");li.value=q.index+1;li.setAttribute("data-index",q.index);
  var head=document.createElement("span");head.className="muted";head.textContent="Question "+(q.index+1)+" of "+q.total+" \u00b7 "+q.skill+" \u00b7 "+q.difficulty+": ";
  li.appendChild(head);li.appendChild(document.createTextNode(q.text));
  var after=null;[].forEach.call(box.children,function(o){if(after===null&&Number(o.getAttribute("data-index"))>q.index)after=o;});
  box.insertBefore(li,after);}
 function update(i){facts.hidden=false;
  put("live-status",i.waiting?"Waiting for a free slot of the account":STATUS[i.status]||i.status);
  put("live-answered",i.questions_answered+(i.questions_total?" of "+i.questions_total:""));
  put("live-ends",utc(i.ends_at));
  ask(i.current_question);
  if(i.status==="completed"||i.status==="cancelled")state.textContent="The interview is "+(STATUS[i.status]||i.status).toLowerCase()+". Reload the page for its "+(i.status==="completed"?"results.":"details.");}
 fetch(sec.getAttribute("data-ticket"),{method:"POST",headers:{"Content-Type":"application/x-www-form-urlencoded"},body:"_csrf="+encodeURIComponent(sec.getAttribute("data-csrf")),credentials:"same-origin"})
 .then(function(r){if(!r.ok)throw new Error("ticket "+r.status);return r.json();})
 .then(function(t){
  var ws=new WebSocket(t.url),ended=false;
  ws.onopen=function(){state.textContent="Connected: following the interview.";ws.send(JSON.stringify({type:"resync",after_seq:0}));};
  ws.onclose=function(e){if(ended)return;state.textContent=e.code===4003?"The live view closed: "+e.reason+" Sign in again to follow the interview.":"The live connection closed. Reload the page to reconnect.";};
  ws.onmessage=function(m){var f;try{f=JSON.parse(m.data);}catch(e){return;}
   if(f.type==="interview_update"&&f.interview){update(f.interview);if(f.interview.status==="completed"||f.interview.status==="cancelled")ended=true;}
   else if(f.type==="question")ask(f.question);};
 }).catch(function(e){state.textContent="The live view is not available: "+e.message;});
})();`;

export const DASHBOARD_JS = [COMMON, INVITATION, LIVE].join("\n");

/** A short digest of the script, in its URL: a page never runs a cached script older than it. */
function digest(text: string): string {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
	return (h >>> 0).toString(36);
}

export const DASHBOARD_JS_PATH = `/dashboard/assets/dashboard.js?v=${digest(DASHBOARD_JS)}`;
