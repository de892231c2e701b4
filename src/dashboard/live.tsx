import { raw } from "hono/html";

/**
 * The live view of an in-progress interview: the page asks for a short-lived observer ticket
 * (signed-in user, this interview only), opens the observer WebSocket with it, asks for the
 * room's history (`resync` from 0) and shows what the channel reports: the interview's status, its
 * progress and end, and every question asked so far, in order, as it is asked. The candidate's
 * answers are not on the channel; they are in the transcript once the interview ends. Without
 * JavaScript the section says to reload.
 */
export function LiveView({ id, csrf }: { id: string; csrf: string }) {
	const script = `
(function(){
 var box=document.getElementById("live-log"),state=document.getElementById("live-state"),facts=document.getElementById("live-facts"),seen={};
 var STATUS={scheduled:"Scheduled",in_progress:"In progress",completed:"Completed",cancelled:"Cancelled"};
 function put(id,t){document.getElementById(id).textContent=t;}
 function utc(v){return v?v.replace("T"," ").slice(0,16)+" UTC":"-";}
 function ask(q){if(!q||seen[q.id])return;seen[q.id]=true;
  var li=document.createElement("li");li.value=q.index+1;li.setAttribute("data-index",q.index);
  var head=document.createElement("span");head.className="muted";head.textContent="Question "+(q.index+1)+" of "+q.total+" · "+q.skill+" · "+q.difficulty+": ";
  li.appendChild(head);li.appendChild(document.createTextNode(q.text));
  var after=null;[].forEach.call(box.children,function(o){if(after===null&&Number(o.getAttribute("data-index"))>q.index)after=o;});
  box.insertBefore(li,after);}
 function update(i){facts.hidden=false;
  put("live-status",i.waiting?"Waiting for a free slot of the account":STATUS[i.status]||i.status);
  put("live-answered",i.questions_answered+(i.questions_total?" of "+i.questions_total:""));
  put("live-ends",utc(i.ends_at));
  ask(i.current_question);
  if(i.status==="completed"||i.status==="cancelled")state.textContent="The interview is "+(STATUS[i.status]||i.status).toLowerCase()+". Reload the page for its "+(i.status==="completed"?"results.":"details.");}
 fetch(${JSON.stringify(`/dashboard/interviews/${id}/live-ticket`)},{method:"POST",headers:{"Content-Type":"application/x-www-form-urlencoded"},body:"_csrf="+encodeURIComponent(${JSON.stringify(csrf)}),credentials:"same-origin"})
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
	return (
		<section aria-labelledby="live-h">
			<h2 id="live-h">Live view</h2>
			<p id="live-state" role="status">
				Connecting…
			</p>
			<dl id="live-facts" class="facts" hidden>
				<dt>Live status</dt>
				<dd id="live-status" />
				<dt>Questions answered</dt>
				<dd id="live-answered" />
				<dt>Ends</dt>
				<dd id="live-ends" />
			</dl>
			<h3>Questions asked</h3>
			<ol id="live-log" aria-live="polite" />
			<noscript>Reload the page to see the interview's progress.</noscript>
			<script>{raw(script)}</script>
		</section>
	);
}
