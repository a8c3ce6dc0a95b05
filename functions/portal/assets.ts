// The portal's one stylesheet and one script, served by the portal itself (no CDN; the CSP allows
// only 'self'). The script is progressive enhancement: every form works without it.
import { createHash } from 'node:crypto';

export const PORTAL_CSS = `
:root{--bg:#f7f7f5;--fg:#1d1d1f;--muted:#5b5b63;--line:#d9d9de;--card:#fff;--accent:#1f57c3;--accent-fg:#fff;--danger:#b3261e;--ok:#17623a;
--draft:#52525a;--review:#8a5a00;--approved:#17623a;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:16px;line-height:1.5}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg)}
a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}header.top :focus-visible{outline-color:#f5a623}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:10}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
header.top{display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.6rem 1.2rem;background:#14161a;color:#fff;flex-wrap:wrap}
header.top a.brand{color:#fff;font-weight:700;text-decoration:none;font-size:1.2rem}header.top nav{display:flex;gap:.2rem .8rem;align-items:baseline;flex-wrap:wrap}
header.top .who{color:#d0d0d8}header.top button.link{color:#cfe0ff}
main{max-width:46rem;margin:0 auto;padding:1.2rem}main.wide{max-width:none}
h1{font-size:1.6rem;margin:.4rem 0 1rem;overflow-wrap:anywhere}h2{font-size:1.2rem;margin:.2rem 0}.lead{font-size:1.05rem;color:var(--muted)}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:.8rem 0}
.stack{display:flex;flex-direction:column;gap:.8rem}.row{display:flex;gap:.6rem;align-items:flex-end}.row.wrap,.wrap{flex-wrap:wrap}.between{justify-content:space-between;align-items:center}.grow{flex:1}
label{display:flex;flex-direction:column;gap:.2rem;font-weight:600;font-size:.95rem}label.check,label:has(>input[type=checkbox]),label:has(>input[type=radio]){flex-direction:row;align-items:baseline;gap:.45rem;font-weight:400}label>input[type=checkbox],label>input[type=radio]{flex:none;margin:0}
fieldset{border:1px solid var(--line);border-radius:6px;margin:0;padding:.4rem .8rem .6rem;min-width:0}legend{font-weight:600;font-size:.95rem;padding:0 .3rem}
input,select,textarea{font:inherit;font-size:1rem;padding:.45rem .55rem;border:1px solid #8e8e96;border-radius:6px;background:#fff;color:var(--fg);min-width:0}select{max-width:100%}.row>label,.filters>label{min-width:0}
textarea{width:100%;resize:vertical}input::placeholder,textarea::placeholder{color:var(--muted);opacity:1}textarea.missing{background:#fff7e6}textarea[readonly]{background:#f0f0f2}
button,.button{font:inherit;font-weight:600;padding:.45rem .9rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:var(--accent)}button.danger{background:var(--danger);border-color:var(--danger)}
button.link{background:none;border:none;color:var(--accent);padding:0;font-weight:400;text-decoration:underline}.keycell button.link,.keycell summary{min-height:24px}button.link.danger{color:var(--danger)}
form.inline{display:inline}.hint{color:var(--muted);font-weight:400;font-size:.9rem}
.badge{display:inline-block;font-size:.75rem;font-weight:600;padding:.05rem .45rem;border-radius:99px;background:#e3ebfb;color:#183f8f;vertical-align:middle}.badge.muted{background:#ececef;color:#3f3f46}.badge.warn{background:#fff1d6;color:#6b4200;white-space:normal}a.badge.tag{background:#e4f2e9;color:#14532d;text-decoration:none;min-height:24px;min-width:24px;line-height:22px;text-align:center;margin:.1rem 0;overflow-wrap:anywhere}a.badge.tag:hover{text-decoration:underline}.bulk:not(:has(select[name=action] option[value^=tag-]:checked)) .bulk-tag{display:none}.outdated[hidden]{display:none}
.notice{padding:.7rem 1rem;border-radius:6px;margin:.8rem 0}.notice-error{background:#fdecea;color:#7a1712;border:1px solid #f3b8b3}.notice-ok{background:#e7f5ec;color:#0f4a2a;border:1px solid #a9dcbb}
.empty{color:var(--muted);padding:1rem;border:1px dashed var(--line);border-radius:8px;background:#fff}
.cards{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.8rem}.card.project{display:flex;flex-direction:column;text-decoration:none;color:var(--fg)}
.account{margin-bottom:2rem}.crumbs{color:var(--muted);margin:0}.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;overflow-wrap:anywhere}
.publish{align-items:center;justify-content:flex-end}.publish .hint{white-space:nowrap}
.tabs{display:flex;flex-wrap:wrap;gap:0 .1rem;border-bottom:1px solid var(--line);margin:.6rem 0 1rem}.tab{padding:.5rem .7rem;white-space:nowrap;text-decoration:none;border-bottom:3px solid transparent;color:var(--fg)}.tab.active{border-color:var(--accent);font-weight:600}
.filters{display:flex;flex-wrap:wrap;gap:.6rem;align-items:flex-end;margin-bottom:.8rem}.filters fieldset{border:1px solid var(--line);border-radius:6px;display:flex;gap:.6rem;padding:.2rem .6rem}
.table-scroll{overflow-x:auto;max-width:100%;position:relative}.table{width:100%;border-collapse:collapse;background:#fff}.table th,.table td{border-bottom:1px solid var(--line);padding:.5rem;text-align:left;vertical-align:top}
.editor td{min-width:14rem;overflow-wrap:anywhere}.editor .keycell{width:15rem}.editor .value .row{flex-wrap:wrap;align-items:center;column-gap:.5rem;row-gap:.3rem;margin-top:.2rem}.editor td:first-child,.editor th:first-child{width:2.2rem;min-width:0}.nowrap{white-space:nowrap}.change{overflow-wrap:anywhere;font-size:.9rem}.bulk{margin-bottom:.6rem}meter{width:100%;height:1.2rem}.keycell{min-width:12rem;font-weight:400}.keyname{font-weight:600;display:block;word-break:break-all}
.status-draft{color:var(--draft)}.status-review{color:var(--review)}.status-approved{color:var(--approved);font-weight:600}
.saved{font-size:.85rem;color:var(--ok)}.saved.error{color:var(--danger)}.counter{margin:.1rem 0 0;font-size:.85rem}.counter.over{color:var(--danger);font-weight:600}
.field-error{color:var(--danger);font-weight:600;font-size:.9rem;margin:.2rem 0 0}[aria-invalid=true]{border-color:var(--danger);border-width:2px}
.changes h3{font-size:1rem;margin:.6rem 0 0}.changes ul{margin:.2rem 0;overflow-wrap:anywhere}.changes p{margin:.3rem 0}
.quality{margin-top:.3rem}.quality:empty{display:none}.warn-title{margin:0;font-weight:600;color:#7a4a00;font-size:.9rem}.warnings{margin:.1rem 0 0;padding-left:1.2rem;font-size:.85rem;color:#5a3600}
.suggestions{margin-top:.4rem;border:1px solid var(--line);border-radius:6px;padding:.4rem;background:#fafafa}.suggestions ol{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.3rem}
button.suggestion{display:block;width:100%;text-align:left;background:#fff;color:var(--fg);border:1px solid var(--line);font-weight:400;padding:.35rem .5rem}button.suggestion:hover{border-color:var(--accent)}button.suggestion .hint{display:block;font-size:.8rem}button.suggestion>span[dir]{display:block;text-align:start}
.pager{display:flex;gap:1rem;margin:1rem 0}.list{list-style:none;padding:0}.list li{padding:.5rem 0;border-bottom:1px solid var(--line);overflow-wrap:anywhere}.list li .row>*{min-width:0}
/* Screenshots: the outline of a key's region is an SVG over the image in its pixels (screenshot-figure.tsx); the image's frame is an outline, not a border, so that the SVG covers the image exactly. */
.shots{list-style:none;padding:0;margin:.8rem 0;display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.8rem}.shots>li{min-width:0}.key-shots{grid-template-columns:repeat(auto-fit,minmax(min(20rem,100%),1fr))}.key-shots figure{margin:0}
.shot-card{display:flex;flex-direction:column;gap:.3rem;margin:0}.shot-link{display:flex;flex-direction:column;gap:.3rem;text-decoration:none;color:var(--fg)}.shot-link:hover .shot-name{text-decoration:underline}.shot-name{overflow-wrap:anywhere}
.shot{position:relative;display:inline-block;max-width:100%;line-height:0;align-self:flex-start;outline:1px solid var(--line);background:#fff}.shot img{display:block;max-width:100%;width:auto;height:auto}.shot-thumb img{max-height:14rem}.shot-large img{max-height:36rem}
.shot svg.regions{position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none;overflow:visible}.shot .halo{fill:none;stroke:#fff;stroke-width:6px;vector-effect:non-scaling-stroke}.shot .box{fill:rgba(214,20,90,.12);stroke:#c8104f;stroke-width:3px;vector-effect:non-scaling-stroke}
.row.region-fields>label:not(.check){flex:1 1 5.5rem;max-width:8rem}.region-fields input{width:100%}
/* Drawing a key's region (PORTAL_JS): touch-action only while drawing, so that a finger on the image scrolls the page otherwise; the box being drawn in the accent colour, dashed, apart from the saved ones. The live region stays shown when empty: one hidden (display:none) is not read when it fills. */
button.draw[hidden]{display:none}button.draw[aria-pressed=true]{background:var(--accent);color:var(--accent-fg)}.region-form.drawing-for{outline:2px solid var(--accent);outline-offset:4px;border-radius:2px}
.shot.drawing{touch-action:none;cursor:crosshair;user-select:none;-webkit-user-select:none;outline:2px solid var(--accent)}.shot .box.drawing{fill:rgba(31,87,195,.15);stroke:var(--accent);stroke-dasharray:6 3}.draw-status{margin:.4rem 0 0}
/* Tasks: a progress bar beside its count in words; a group of choices refused (its fieldset) framed as a refused field is; a task's facts as a two-column list. */
.task-progress{display:inline-flex;align-items:center;gap:.4rem;flex-wrap:wrap}.task-progress progress{width:7rem;height:.9rem}fieldset.invalid{border-color:var(--danger);border-width:2px}.assignees{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(16rem,100%),1fr));gap:.1rem .8rem}.assignees label{flex-wrap:wrap;min-width:0}.assignees .email{overflow-wrap:anywhere;min-width:0}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.6rem 0}.facts dt{font-weight:600}.facts dd{margin:0;overflow-wrap:anywhere}.description{white-space:pre-line;overflow-wrap:anywhere}
.actions{align-items:center;gap:1rem}.secret{background:#fffbe6;border:1px solid #e8d48a;border-radius:8px;padding:1rem;margin:1rem 0}.danger-zone{border-color:var(--danger)}
@media (max-width:40rem){main{padding:.8rem}.filters>label{flex:1 1 6.3rem}.filters>label.grow{flex-basis:100%}.filters>label select,.filters>label input{width:100%}details.card{padding:.5rem .8rem;margin:.5rem 0}.row{flex-wrap:wrap}h1{font-size:1.35rem}.row>label:not(.check){flex:1 1 12rem}.row>p{flex:1 1 14rem}.publish{justify-content:flex-start}
.table td.nowrap{white-space:normal}
.stacked,.stacked tbody,.stacked tr,.stacked td{display:block}.stacked thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}.stacked tr{border-bottom:1px solid var(--line);padding:.4rem 0}.stacked td{border-bottom:0;padding:.15rem .5rem}
.editor,.editor tbody,.editor td,.editor th{display:block}.editor thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.editor tr{display:flex;flex-wrap:wrap;border-bottom:2px solid var(--line)}.editor td,.editor th{border-bottom:0;min-width:0}.editor td:first-child{width:auto;padding-right:0}
.editor .keycell{flex:1 1 0}.editor td:not(:first-child){flex:1 1 100%;padding-top:0}
.editor .value>label.sr-only{position:static;width:auto;height:auto;overflow:visible;clip:auto;white-space:normal;display:block;font-size:.85rem;font-weight:400;color:var(--muted)}}
`;

export const PORTAL_JS = `
(function(){
  var csrf=(document.querySelector('meta[name=csrf-token]')||{}).content;
  document.addEventListener('click',function(e){
    var b=e.target.closest&&e.target.closest('[data-copy]');if(!b)return;
    var input=document.getElementById(b.getAttribute('data-copy'));if(!input)return;
    // Said in the live region beside the button: a button's changed text is not announced.
    var said=document.getElementById(b.getAttribute('data-copy')+'-copied');
    function done(ok){if(said){said.textContent='';said.textContent=ok?'Copied':'Not copied: select the text and copy it'}}
    input.select();(navigator.clipboard?navigator.clipboard.writeText(input.value):Promise.reject()).then(function(){done(true)},function(){done(!!(document.execCommand&&document.execCommand('copy')))});
  });
  // After a session ended, the page's CSRF token was that session's: once the user has signed in
  // again (in another tab, so the typed text stays here), the next save first takes the new
  // session's token from a fresh copy of this page.
  var staleToken=false;
  function freshToken(){
    if(!staleToken)return Promise.resolve();
    return fetch(location.href,{headers:{'Accept':'text/html'}}).then(function(r){return r.text()}).then(function(html){
      var m=/<meta name="csrf-token" content="([^"]+)"/.exec(html);if(m){csrf=m[1];staleToken=false}
    },function(){});
  }
  // The version a value form names (If-Match), "none" for a value that does not exist; the bulk
  // form's record of the value beside it (key/language/version) follows: what the field shows now.
  function setVersion(f,v){var ver=f.querySelector('input[name=version]');if(!ver){ver=document.createElement('input');ver.type='hidden';ver.name='version';f.appendChild(ver)}ver.value=v;
    var shown=f.parentNode&&f.parentNode.querySelector('input[name=shown]');if(shown)shown.value=shown.value.replace(/[^/]*$/,v)}
  // The stored text and status beside a value whose save was refused because someone changed it:
  // the typed text stays in the field, and the form now names the stored version, so Save again
  // replaces what is shown here knowingly (and is refused again if it changes once more).
  function showStored(f,ta,current){
    var line=f.querySelector('.stored');if(!line){line=el('p','hint stored');f.insertBefore(line,f.querySelector('.quality'))}
    line.textContent='Stored now: ';
    if(current){var q=el('q',null,current.value);q.lang=ta.lang;q.dir=ta.dir;line.appendChild(q);line.appendChild(document.createTextNode(' ('+current.status+')'))}
    else line.appendChild(document.createTextNode('no value'));
    setVersion(f,current?String(current.version):'none');
  }
  // A session that ended: the message, and a sign-in link that opens in a new tab (this page, and
  // the text typed in it, stay); signed in there, Save here again.
  function sessionEnded(out,detail){
    out.textContent=detail+' ';
    var a=el('a',null,'Sign in (opens a new tab)');a.href='/portal/sign-in?next='+encodeURIComponent(location.pathname+location.search);a.target='_blank';a.rel='noopener';
    out.appendChild(a);out.appendChild(document.createTextNode(', then Save again: your text is kept here.'));
    staleToken=true;
  }
  document.addEventListener('submit',function(e){
    var f=e.target;var msg=f.getAttribute('data-confirm');
    if(msg&&!window.confirm(msg)){e.preventDefault();return}
    if(!f.hasAttribute('data-inline')||!window.fetch)return;
    // A button with its own address (Mark up to date) posts the form there as a page would.
    if(e.submitter&&e.submitter.hasAttribute('formaction'))return;
    e.preventDefault();
    var out=f.querySelector('.saved');out.textContent='Saving…';out.className='saved';
    var body=new URLSearchParams(new FormData(f));
    freshToken().then(function(){return fetch(f.action,{method:'POST',headers:{'X-CSRF-Token':csrf,'Accept':'application/json'},body:body})})
      .then(function(r){return r.json().then(function(j){return{ok:r.ok,status:r.status,j:j}})})
      .then(function(res){
        var ta=f.querySelector('textarea');
        // The warnings' count is said with "Saved": the list beside the value is no live region.
        if(res.ok){var n=res.j.warnings?res.j.warnings.length:0;out.textContent=n?'Saved, with '+(n===1?'1 quality warning':n+' quality warnings'):'Saved';document.dispatchEvent(new CustomEvent('tms:saved',{detail:{status:res.j.status}}));if(res.j.warnings)showWarnings(f,res.j.warnings);var s=f.querySelector('select');s.className='status status-'+res.j.status;ta.classList.remove('missing');ta.removeAttribute('aria-invalid');
          var stored=f.querySelector('.stored');if(stored)stored.remove();
          // A new text is up to date with its source: the mark goes; the same text keeps it, at its new version.
          // A hidden element named by aria-describedby is still read out: the name goes with the mark.
          var od=f.querySelector('.outdated');if(od){var gone=res.j.outdated===false;od.hidden=gone;
            var mid=ta.id+'-outdated',ids=(ta.getAttribute('aria-describedby')||'').split(' ').filter(function(x){return x&&x!==mid});if(!gone)ids.push(mid);ta.setAttribute('aria-describedby',ids.join(' '))}
          // The next save must name the version just written (the value's If-Match).
          setVersion(f,String(res.j.version))}
        else{out.className='saved error';ta.setAttribute('aria-invalid','true');
          var detail=typeof res.j.detail==='string'?res.j.detail:Array.isArray(res.j.detail)&&res.j.detail[0]?'Not saved: '+res.j.detail[0].msg:'Not saved: check the value';
          if(res.status===401)sessionEnded(out,detail);
          // A change (412) or an approval (403) meanwhile: the stored text beside the typed one.
          else{out.textContent=detail;if((res.status===412||res.status===403)&&'current' in res.j)showStored(f,ta,res.j.current)}}
      },function(){out.className='saved error';out.textContent='Not saved: network error'});
  });
  // A value's quality warnings, from the save's answer (text only: never markup from the server).
  var LABELS={icu_syntax:'ICU syntax',placeholders:'Placeholders',plurals:'Plurals',html_tags:'Tags',whitespace:'Whitespace',punctuation:'Punctuation',length:'Length',max_length:'Character limit'};
  function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e}
  function showWarnings(f,list){
    var box=f.querySelector('.quality');if(!box)return;box.textContent='';if(!list.length)return;
    var t=el('p','warn-title');var icon=el('span',null,'\u26a0 ');icon.setAttribute('aria-hidden','true');t.appendChild(icon);
    t.appendChild(document.createTextNode(list.length===1?'1 quality warning':list.length+' quality warnings'));box.appendChild(t);
    var ul=el('ul','warnings');list.forEach(function(w){ul.appendChild(el('li',null,(LABELS[w.check]||w.check)+': '+w.message))});box.appendChild(ul);
  }
  // Translation memory: the suggestions of one value, each a button that puts its text in the value (saved only by Save).
  document.addEventListener('click',function(e){
    var a=e.target.closest&&e.target.closest('[data-suggest]');if(!a||!window.fetch)return;
    e.preventDefault();
    var ta=document.getElementById(a.getAttribute('data-suggest'));var box=document.getElementById(a.getAttribute('aria-controls'));
    if(!box.hidden&&a.getAttribute('aria-expanded')==='true'){box.hidden=true;a.setAttribute('aria-expanded','false');return}
    box.hidden=false;a.setAttribute('aria-expanded','true');box.textContent='';box.appendChild(el('p','hint','Looking in the translation memory…'));
    // A message that ends the look-up takes focus, as the first suggestion does: the box is no
    // live region (one that appears with its content is not reliably announced), and Escape there
    // closes it and returns to the link.
    function say(cls,text){var p=el('p',cls,text);p.tabIndex=-1;box.appendChild(p);p.focus()}
    fetch(a.href,{headers:{'Accept':'application/json'}}).then(function(r){return r.json().then(function(j){return{ok:r.ok,j:j}})}).then(function(res){
      box.textContent='';
      if(!res.ok){say('saved error',typeof res.j.detail==='string'?res.j.detail:'No suggestions: the request failed');return}
      if(!res.j.source){say('hint','No suggestions: this key has no value in the source language.');return}
      if(!res.j.suggestions.length){say('hint','No suggestions: the translation memory holds approved translations only, and none is close to this source text yet.');return}
      var h=el('p','hint','Suggestions (choose one to use it; Save keeps it):');box.appendChild(h);
      var ol=el('ol');
      res.j.suggestions.forEach(function(s){
        var b=el('button','suggestion');b.type='button';var t=el('span',null,s.value);t.lang=ta.lang;t.dir=ta.dir;b.appendChild(t);
        b.appendChild(el('span','hint',Math.round(s.score*100)+' % '+(s.match==='exact'?'exact match':'similar')+', from '+s.origin.project_name+' / '+s.origin.key+', '+s.origin.updated_at.slice(0,10)));
        b.addEventListener('click',function(){ta.value=s.value;countChars(ta);ta.classList.remove('missing');box.hidden=true;a.setAttribute('aria-expanded','false');
          var out=ta.form.querySelector('.saved');out.className='saved';out.textContent='Suggestion inserted, not saved yet';ta.focus()});
        var li=el('li');li.appendChild(b);ol.appendChild(li);
      });
      box.appendChild(ol);var first=ol.querySelector('button');if(first)first.focus();
    },function(){box.textContent='';say('saved error','No suggestions: network error')});
  });
  // Escape in a suggestion list closes it and returns to its link.
  document.addEventListener('keydown',function(e){
    if(e.key!=='Escape')return;var box=e.target.closest&&e.target.closest('.suggestions');if(!box)return;
    var a=document.querySelector('[aria-controls="'+box.id+'"]');box.hidden=true;if(a){a.setAttribute('aria-expanded','false');a.focus()}
  });
  // A key's character limit: the count under a value follows its text as it is typed, in graphemes as
  // the check counts them (an emoji or an accented letter once). A plural or select counts by its
  // longest form, which only the save measures. The count is read with the field (aria-describedby),
  // not announced at each key.
  var graphemes=window.Intl&&Intl.Segmenter?new Intl.Segmenter(undefined,{granularity:'grapheme'}):null;
  var CHOICE=/\\{\\s*[^\\s{},]+\\s*,\\s*(?:plural|selectordinal|select)\\s*,/;
  function countChars(ta){
    var max=Number(ta.getAttribute('data-max-length'));var out=document.getElementById(ta.id+'-len');if(!max||!out)return;
    var text=ta.value;
    if(CHOICE.test(text)){out.className='hint counter';out.textContent='\u2026 / '+max+' characters: the longest form is checked on save';return}
    var n=graphemes?Array.from(graphemes.segment(text)).length:Array.from(text).length;
    out.className=n>max?'hint counter over':'hint counter';
    out.textContent=n+' / '+max+' characters'+(n>max?': '+(n-max)+' over':'');
  }
  document.addEventListener('input',function(e){var ta=e.target;if(ta&&ta.hasAttribute&&ta.hasAttribute('data-max-length'))countChars(ta)});
  // Ctrl/Cmd+Enter in a value saves it; translators keep their hands on the keyboard.
  document.addEventListener('keydown',function(e){
    if(e.key==='Enter'&&(e.ctrlKey||e.metaKey)&&e.target.form&&e.target.form.hasAttribute('data-inline')){e.preventDefault();e.target.form.requestSubmit()}
  });
  // While a build is pending (this page's Publish, an auto-publish, someone else's), the status
  // follows it until the build is done; the server's pending flag decides, never a clock compared.
  var st=document.getElementById('cache-status');var following=false;
  var lastBuilt=st?st.getAttribute('data-built-at')||null:null;
  var publishedText=function(j){return j.ready&&j.last_rebuilt_at?'Published '+j.last_rebuilt_at.replace('T',' ').slice(0,19)+' UTC':'Not published yet'};
  // waitFor: after a save with auto-publish on, the rebuild it schedules is requested once the
  // project's edits pause (AUTO_REBUILD_DEBOUNCE_MS, 2 s by default): until then nothing may be
  // pending, so the status is asked again, once a second and at most waitFor times, until a build
  // newer than the one shown is done.
  var follow=function(waitFor){if(following)return;following=true;
    var poll=function(){fetch(st.getAttribute('data-status-url'),{headers:{'Accept':'application/json'}}).then(function(r){return r.json()}).then(function(j){
      if(j.pending){st.textContent=j.build_state==='failed'?'Publishing failed, retrying…':'Publishing…';setTimeout(poll,j.build_state==='failed'?5000:1000);return}
      if(waitFor>0&&j.last_rebuilt_at===lastBuilt){waitFor--;setTimeout(poll,1000);return}
      following=false;lastBuilt=j.last_rebuilt_at;st.textContent=publishedText(j)},function(){following=false})};
    poll()};
  if(st&&st.getAttribute('data-pending')==='true')follow(0);
  // A saved value: an approved one is published at once (the portal asks for the build with the
  // save), and with auto-publish on any change is, once the edits pause; the status follows that
  // build to its time. A draft or a value in review with auto-publish off changes no published file.
  document.addEventListener('tms:saved',function(e){
    if(st&&(e.detail&&e.detail.status==='approved'||st.getAttribute('data-auto')==='true'))follow(15);
  });
  // A key's region drawn on the screenshot's image (its page, for members who manage screenshots):
  // a key form's "Draw on the image" makes it the one drawn for, and a drag on the image (pointer
  // events: mouse, pen or finger) fills its four numbers, which Save region sends as typed ones
  // would; nothing is saved before. The numbers stay the keyboard's way, and typing them moves the
  // same preview box.
  var SVG='http://www.w3.org/2000/svg',FIELDS=['x','y','width','height'];
  var drawBtn=null,drag=null;
  if(window.PointerEvent)document.querySelectorAll('[data-draw]').forEach(function(b){b.hidden=false});
  function drawSay(text){var s=document.getElementById('draw-status');if(s)s.textContent=text}
  function shotOf(b){return document.getElementById(b.getAttribute('data-draw'))}
  // The image's own size: its width and height attributes, the stored size the regions are in.
  function sizeOf(shot){var img=shot.querySelector('img');return{img:img,w:Number(img.getAttribute('width')),h:Number(img.getAttribute('height'))}}
  // A point of the screen in the image's pixels (fractions), kept inside the image.
  function toImage(shot,e){var z=sizeOf(shot),b=z.img.getBoundingClientRect();
    return{x:Math.min(Math.max((e.clientX-b.left)*z.w/b.width,0),z.w),y:Math.min(Math.max((e.clientY-b.top)*z.h/b.height,0),z.h)}}
  // The region between two points, in whole pixels as the server takes them, at least 1 × 1, inside the image.
  function regionOf(shot,a,b){var z=sizeOf(shot),x=Math.min(Math.round(Math.min(a.x,b.x)),z.w-1),y=Math.min(Math.round(Math.min(a.y,b.y)),z.h-1);
    return{x:x,y:y,width:Math.max(1,Math.round(Math.max(a.x,b.x))-x),height:Math.max(1,Math.round(Math.max(a.y,b.y))-y)}}
  // The preview's halo and box, made on first use (with the SVG, when the image has no region yet); null removes them.
  function preview(shot,r){
    var svg=shot.querySelector('svg.regions'),z=sizeOf(shot),rects=shot.querySelectorAll('rect.drawing');
    if(!r){for(var i=0;i<rects.length;i++)rects[i].remove();return}
    if(!svg){svg=document.createElementNS(SVG,'svg');svg.setAttribute('class','regions');svg.setAttribute('viewBox','0 0 '+z.w+' '+z.h);svg.setAttribute('preserveAspectRatio','none');
      svg.setAttribute('aria-hidden','true');svg.setAttribute('focusable','false');shot.appendChild(svg)}
    if(!rects.length)rects=['halo drawing','box drawing'].map(function(c){var e=document.createElementNS(SVG,'rect');e.setAttribute('class',c);svg.appendChild(e);return e});
    for(var j=0;j<rects.length;j++)FIELDS.forEach(function(n){rects[j].setAttribute(n,String(r[n]))});
  }
  function fieldsOf(f){return FIELDS.map(function(n){return f.querySelector('input[name='+n+']')})}
  // The preview shows a form's four numbers while they make a region inside the image (as the server would take it).
  function followFields(f){var b=f.querySelector('[data-draw]');if(!b)return;var shot=shotOf(b),z=sizeOf(shot);
    var v=fieldsOf(f).map(function(i){return i.value===''?NaN:Number(i.value)});
    var ok=v.every(function(n){return Number.isInteger(n)})&&v[0]>=0&&v[1]>=0&&v[2]>=1&&v[3]>=1&&v[0]+v[2]<=z.w&&v[1]+v[3]<=z.h;
    preview(shot,ok?{x:v[0],y:v[1],width:v[2],height:v[3]}:null)}
  function stopDrawing(){if(!drawBtn)return;var b=drawBtn;drawBtn=null;drag=null;
    b.setAttribute('aria-pressed','false');b.form.classList.remove('drawing-for');shotOf(b).classList.remove('drawing');followFields(b.form)}
  document.addEventListener('click',function(e){
    var b=e.target.closest&&e.target.closest('[data-draw]');if(!b)return;
    var again=drawBtn===b;stopDrawing();if(again){drawSay('Stopped drawing');return}
    drawBtn=b;b.setAttribute('aria-pressed','true');b.form.classList.add('drawing-for');
    var shot=shotOf(b);shot.classList.add('drawing');followFields(b.form);
    // The image is above the keys' table: in sight, the drag can start.
    shot.scrollIntoView({block:'nearest'});
    drawSay('Drag on the image to mark where '+b.getAttribute('data-key-name')+' is (Escape stops drawing)');
  });
  document.addEventListener('keydown',function(e){if(e.key==='Escape'&&drawBtn){stopDrawing();drawSay('Stopped drawing')}});
  document.addEventListener('input',function(e){var f=e.target.form;if(f&&f.classList.contains('region-form'))followFields(f)});
  // Capture: the drag goes on when the pointer leaves the image (clamped to its edge), and ends where it is let go;
  // one pointer at a time (a second finger does not start another).
  document.addEventListener('pointerdown',function(e){
    if(!drawBtn||drag||e.button!==0)return;var shot=shotOf(drawBtn);if(!shot.contains(e.target))return;
    e.preventDefault();shot.setPointerCapture(e.pointerId);
    var p=toImage(shot,e);drag={id:e.pointerId,from:p,x:e.clientX,y:e.clientY};preview(shot,regionOf(shot,p,p));
  });
  document.addEventListener('pointermove',function(e){if(drag&&e.pointerId===drag.id){var shot=shotOf(drawBtn);preview(shot,regionOf(shot,drag.from,toImage(shot,e)))}});
  document.addEventListener('pointerup',function(e){
    if(!drag||e.pointerId!==drag.id)return;
    var shot=shotOf(drawBtn),r=regionOf(shot,drag.from,toImage(shot,e)),f=drawBtn.form,inputs=fieldsOf(f),moved=Math.max(Math.abs(e.clientX-drag.x),Math.abs(e.clientY-drag.y));drag=null;
    // A click or a tap (found by review): no box was drawn, and the key's numbers stay as they were.
    if(moved<4){followFields(f);drawSay('Drag across the text to mark where '+drawBtn.getAttribute('data-key-name')+' is (a click marks nothing)');return}
    // All four set before any input event, so that no listener sees half a region.
    inputs.forEach(function(i){i.value=String(r[i.name])});inputs.forEach(function(i){i.dispatchEvent(new Event('input',{bubbles:true}))});
    // Without scrolling: the image, and the box just drawn, stay in sight to draw again (found by review).
    f.querySelector('button[value=region]').focus({preventScroll:true});
    drawSay('Marked at '+r.x+', '+r.y+', '+r.width+' × '+r.height+' px — Save region to keep it');
  });
  document.addEventListener('pointercancel',function(e){if(drag&&e.pointerId===drag.id){drag=null;followFields(drawBtn.form)}});
  // A mouse drag on an image would otherwise drag the image itself away.
  document.addEventListener('dragstart',function(e){if(drawBtn&&shotOf(drawBtn).contains(e.target))e.preventDefault()});
})();
`;

export const ASSET_VERSION = createHash('sha256').update(PORTAL_CSS + PORTAL_JS).digest('hex').slice(0, 10);
