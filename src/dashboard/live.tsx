import { raw } from "hono/html";

/**
 * The live view of an in-progress interview: the page asks for a short-lived observer ticket
 * (signed-in user, this interview only), opens the observer WebSocket with it and lists what
 * the channel reports. Without JavaScript the section says to reload.
 */
export function LiveView({ id, csrf }: { id: string; csrf: string }) {
	const script = `
(function(){
 var box=document.getElementById("live-log"),state=document.getElementById("live-state");
 function add(t){var li=document.createElement("li");li.textContent=t;box.appendChild(li);}
 fetch(${JSON.stringify(`/dashboard/interviews/${id}/live-ticket`)},{method:"POST",headers:{"Content-Type":"application/x-www-form-urlencoded"},body:"_csrf="+encodeURIComponent(${JSON.stringify(csrf)}),credentials:"same-origin"})
 .then(function(r){if(!r.ok)throw new Error("ticket "+r.status);return r.json();})
 .then(function(t){
  var ws=new WebSocket(t.url);
  ws.onopen=function(){state.textContent="Connected: following the interview.";};
  ws.onclose=function(e){state.textContent=e.code===4003?"The live view closed: "+e.reason+" Sign in again to follow the interview.":"The live connection closed. Reload the page to reconnect.";};
  ws.onmessage=function(m){try{var f=JSON.parse(m.data);var d=f.data||{};
   var text=f.type+(d.question&&d.question.text?": "+d.question.text:"")+(d.text?": "+d.text:"")+(d.status?" ("+d.status+")":"");
   add(text);}catch(e){}};
 }).catch(function(e){state.textContent="The live view is not available: "+e.message;});
})();`;
	return (
		<section aria-labelledby="live-h">
			<h2 id="live-h">Live view</h2>
			<p id="live-state" role="status">
				Connecting…
			</p>
			<ol id="live-log" aria-live="polite" />
			<noscript>Reload the page to see the interview's progress.</noscript>
			<script>{raw(script)}</script>
		</section>
	);
}
