/**
 * The public pages ship no JavaScript bundle (handle { scripts: false }); these
 * small inline scripts enhance what already works as plain HTML forms and links.
 * Each one is safe to run twice and does nothing when its elements are absent.
 */
import { FILTER_PATTERNS } from "~/schemas/preregistration";

/**
 * Every public page: marks <html class="js">, submits [data-autosubmit] selects
 * on change, and opens a[data-modal] links as a <dialog> (the target page's
 * .modal element, fetched; its scripts run; GET forms inside reload the dialog;
 * the address follows with history, Escape/Close/Back close it).
 */
export const COMMON_SCRIPT = `(function(){var d=document;d.documentElement.classList.add('js');
d.addEventListener('change',function(e){var t=e.target;if(t&&t.hasAttribute&&t.hasAttribute('data-autosubmit')&&t.form){t.form.requestSubmit?t.form.requestSubmit():t.form.submit()}});
if(!window.HTMLDialogElement||!window.fetch||!window.DOMParser||d.documentElement.hasAttribute('data-dialogs'))return;d.documentElement.setAttribute('data-dialogs','');
var g=null;function box(){if(!g){g=d.createElement('dialog');g.className='js-dialog';g.addEventListener('close',function(){if(history.state&&history.state.modal)history.back()});d.body.appendChild(g)}return g}
function show(html,url,push){var m=new DOMParser().parseFromString(html,'text/html').querySelector('.modal');if(!m){location.href=url;return}var b=box();b.replaceChildren(d.importNode(m,true));b.querySelectorAll('script').forEach(function(s){var n=d.createElement('script');if(s.type)n.type=s.type;n.text=s.text;s.replaceWith(n)});if(!b.open)b.showModal();history[push?'pushState':'replaceState']({modal:url},'',url);var f=b.querySelector('h1');if(f){f.tabIndex=-1;f.focus()}}
function load(url,push){fetch(url,{credentials:'same-origin'}).then(function(r){if(!r.ok)throw r;return r.text().then(function(t){show(t,r.url,push)})}).catch(function(){location.href=url})}
d.addEventListener('click',function(e){var a=e.target&&e.target.closest&&e.target.closest('a');if(!a||e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey)return;if(g&&g.contains(a)&&a.hasAttribute('data-close')){e.preventDefault();g.close();return}if(a.hasAttribute('data-modal')&&!(g&&g.contains(a))){e.preventDefault();load(a.href,true)}});
d.addEventListener('submit',function(e){var f=e.target;if(!g||!g.contains(f)||f.method!=='get')return;e.preventDefault();var u=new URL(f.action,location.href);u.search=new URLSearchParams(new FormData(f)).toString();load(u.href,false)});
addEventListener('popstate',function(e){if(e.state&&e.state.modal)load(e.state.modal,false);else if(g&&g.open)g.close()});})();`;

/**
 * Pre-registration forms (form[data-prereg]): the typing filters of spec 000 §5
 * on [data-filter] inputs, images over 720 x 1280 scaled down at quality 0.8
 * before upload, and the "Please Confirm Your Phone Number." dialog before the
 * post (which then saves at once: intent=save).
 */
export const PREREG_SCRIPT = `(function(){var d=document,P={email:/${FILTER_PATTERNS.email}/g,digits:/${FILTER_PATTERNS.digits}/g};try{P.text=new RegExp(${JSON.stringify(FILTER_PATTERNS.text)},'gu')}catch(x){}
d.addEventListener('input',function(e){var t=e.target,k=t&&t.getAttribute&&t.getAttribute('data-filter');if(!k||!P[k])return;var v=t.value;if(k==='digits')v=v.replace(/[\\u0966-\\u096F]/g,function(c){return String(c.charCodeAt(0)-2406)});v=v.replace(P[k],'');if(v!==t.value)t.value=v});
d.addEventListener('change',function(e){var t=e.target;if(!t||!t.matches||!t.matches('input[type=file][data-bound]')||!t.files||!t.files[0])return;var file=t.files[0];if(!/^image\\/(jpeg|png|webp)$/.test(file.type)||!window.createImageBitmap||!window.DataTransfer)return;createImageBitmap(file).then(function(img){var s=Math.min(720/img.width,1280/img.height);if(s>=1)return;var c=d.createElement('canvas');c.width=Math.round(img.width*s);c.height=Math.round(img.height*s);var x=c.getContext('2d');x.fillStyle='#fff';x.fillRect(0,0,c.width,c.height);x.drawImage(img,0,0,c.width,c.height);c.toBlob(function(b){if(!b)return;var dt=new DataTransfer();dt.items.add(new File([b],file.name.replace(/\\.[^.]*$/,'')+'.jpg',{type:'image/jpeg'}));t.files=dt.files},'image/jpeg',0.8)}).catch(function(){})});
d.querySelectorAll('form[data-prereg]:not([data-ready])').forEach(function(f){f.setAttribute('data-ready','');var sh=f.elements.shared,fi=f.elements.screenshot;function need(){if(fi)fi.required=!!(sh&&sh.checked&&!f.elements.screenshot_ref)}if(sh){sh.addEventListener('change',need);need()}var g=f.querySelector('dialog[data-confirm]');if(!g||!g.showModal)return;var ok=false;
f.addEventListener('submit',function(e){if(ok){e.preventDefault();return}var s=e.submitter;if(s&&s.value!=='review')return;e.preventDefault();g.querySelector('[data-phone]').textContent=f.elements.phone.value;g.showModal()});
g.querySelector('[data-back]').addEventListener('click',function(){g.close()});
g.querySelector('[data-save]').addEventListener('click',function(){ok=true;var i=d.createElement('input');i.type='hidden';i.name='intent';i.value='save';f.appendChild(i);g.close();f.classList.add('busy');f.submit()});
addEventListener('pageshow',function(){ok=false;f.classList.remove('busy');var i=f.querySelector('input[type=hidden][name=intent]');if(i)i.remove()})})})();`;

/** The verify form: "OTP is required" shown at once for an empty code, and the resend button counting down. */
export const VERIFY_SCRIPT = `(function(){var f=document.querySelector('form[data-verify]:not([data-ready])');if(!f)return;f.setAttribute('data-ready','');
f.addEventListener('submit',function(e){var s=e.submitter;if(s&&s.value==='resend')return;var c=f.elements.code;if(c.value.trim())return;e.preventDefault();var r=f.querySelector('[data-code-error]');r.textContent=r.getAttribute('data-required');r.hidden=false;c.setAttribute('aria-invalid','true');c.focus()});
var b=f.querySelector('[data-resend-at]');if(!b)return;var at=Date.parse(b.getAttribute('data-resend-at'));var w=f.querySelector('[data-wait]');if(!(at>Date.now()))return;b.disabled=true;
(function tick(){var s=Math.ceil((at-Date.now())/1000);if(s<=0){b.disabled=false;if(w)w.hidden=true;return}if(w){w.hidden=false;w.textContent=w.getAttribute('data-template').replace('{seconds}',s)}setTimeout(tick,1000)})()})();`;

/**
 * Booking forms (form[data-cascade]): state narrows districts, district narrows
 * cities, city narrows branches and selects the first, in the browser.
 */
export const CASCADE_SCRIPT = `(function(){document.querySelectorAll('form[data-cascade]:not([data-ready])').forEach(function(f){f.setAttribute('data-ready','');var all=JSON.parse(f.getAttribute('data-cascade')),E=f.elements,S=E.state,D=E.district,C=E.city,B=E.branch_id,ph=f.getAttribute('data-placeholder')||'';
function uniq(a){return a.filter(function(v,i){return a.indexOf(v)===i}).sort(function(x,y){return x.localeCompare(y)})}
function fill(sel,items){sel.innerHTML='';sel.add(new Option(ph,''));items.forEach(function(it){sel.add(new Option(it[1],String(it[0])))});sel.value=''}
function col(list,k){return uniq(list.map(function(b){return b[k]})).map(function(v){return[v,v]})}
function upd(level){var s=all.filter(function(b){return!S.value||b.state===S.value});if(level<1)fill(D,col(s,'district'));var dd=s.filter(function(b){return!D.value||b.district===D.value});if(level<2)fill(C,col(dd,'city'));var cc=dd.filter(function(b){return!C.value||b.city===C.value});fill(B,cc.map(function(b){return[b.id,b.title]}));if(C.value&&cc.length)B.value=String(cc[0].id)}
S.addEventListener('change',function(){upd(0)});D.addEventListener('change',function(){upd(1)});C.addEventListener('change',function(){upd(2)})})})();`;
