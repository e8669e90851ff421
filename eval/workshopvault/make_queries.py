"""The workshop vault's questions: ``python eval/workshopvault/make_queries.py OUT`` writes
OUT/queries.jsonl, each gold path checked against OUT/vault (make_vault.py first)."""

import json
import os
import sys
from collections import Counter

N = "2025-10-20T12:00:00"
Q = []


def q(id, cls, query, gold, now=N, **kw):
    Q.append({"id": id, "query": query, "class": cls, "now": now, "gold": gold, **kw})


J = lambda d: f"journal/{d}.md"
# exact
q(
    "ex-01",
    "exact",
    "What was purchase order PO-7781 for?",
    [J("2024-10-14"), "reference/projects/hagen-commission.md"],
)
q(
    "ex-02",
    "exact",
    "What does error TW-E42 mean?",
    ["reference/components/pressure-sensor.md", J("2024-11-20")],
)
q("ex-03", "exact", "Where did I write about reconcile_vat()?", ["reference/components/invoice-parser.md"])
q("ex-04", "exact", "What was LL-203?", [J("2024-07-15"), "reference/components/invoice-parser.md"])
q("ex-05", "exact", "What did I note about the Felder AF 22?", ["reference/equipment/dust-extraction.md"])
q("ex-06", "exact", "What went wrong with invoice INV-2025-0193?", [J("2025-01-13")])
q("ex-07", "exact", "Which note mentions the BMP390?", ["reference/components/pressure-sensor.md"])
q("ex-08", "exact", "What's in mapping.csv?", ["reference/techniques/saf-t.md"])
q("ex-09", "exact", "What happened with ticket LL-211?", [J("2024-09-09"), J("2024-04-10")])
# paraphrase
q(
    "pa-01",
    "paraphrase",
    "How do I get a keen cutting edge back on my blades?",
    ["reference/techniques/sharpening.md"],
)
q(
    "pa-02",
    "paraphrase",
    "What triggers my employer's spinal trouble?",
    ["reference/people/dr-vesna-vukovic.md"],
)
q(
    "pa-03",
    "paraphrase",
    "Was there a moment my employer considered giving up his business?",
    [J("2023-11-06")],
)
q(
    "pa-04",
    "paraphrase",
    "Is there anything my employer's child must never eat?",
    ["reference/people/marit-lund.md"],
)
q("pa-05", "paraphrase", "How high did the sea climb in that big autumn tempest?", [J("2024-11-20")])
q(
    "pa-06",
    "paraphrase",
    "Who mentored my employer when he was starting out?",
    ["reference/people/halvard-lund.md"],
)
q(
    "pa-07",
    "paraphrase",
    "What stops fine particles from filling the room while we cut?",
    ["reference/equipment/dust-extraction.md"],
)
q("pa-08", "paraphrase", "What music was chosen for the memorial service?", [J("2024-02-19")])
q(
    "pa-09",
    "paraphrase",
    "Which firm covers the truck against accidents?",
    ["reference/equipment/workshop-van.md"],
)
# entity chain
q(
    "ec-01",
    "entity_chain",
    "How does Tidewatch stop ferry wakes from corrupting the level readings?",
    ["reference/techniques/moving-median-filter.md"],
)
q(
    "ec-02",
    "entity_chain",
    "How does Ledgerline work out which supplier an invoice came from?",
    ["reference/techniques/fuzzy-vendor-matching.md"],
)
q(
    "ec-03",
    "entity_chain",
    "What did we protect the Hagen dining table with?",
    ["reference/techniques/hardwax-oil.md"],
)
q(
    "ec-04",
    "entity_chain",
    "Who do I ring if the Tidewatch logger stops reporting?",
    ["reference/places/kvitsund-sailing-club.md"],
)
q(
    "ec-05",
    "entity_chain",
    "What stretches am I supposed to remind Hal about?",
    ["reference/techniques/mckenzie-extensions.md"],
)
q(
    "ec-06",
    "entity_chain",
    "What does Ledgerline produce for the accountants at year end?",
    ["reference/techniques/saf-t.md"],
)
q(
    "ec-07",
    "entity_chain",
    "How far off-centre does Lise need to drill for her qualification bench?",
    ["reference/techniques/drawbore-joinery.md"],
)
q(
    "ec-08",
    "entity_chain",
    "What do I check before locking up the workshop each night?",
    ["reference/techniques/shutdown-checklist.md"],
)
# alias
q("al-01", "alias", "When is Dr V's clinic closed?", ["reference/people/dr-vesna-vukovic.md"])
q(
    "al-02",
    "alias",
    "When does the Big Blue have to pass its next check?",
    ["reference/equipment/workshop-van.md"],
)
q("al-03", "alias", "What's Lili's phone number?", ["reference/people/lise-holm.md"])
q("al-04", "alias", "Where did the Commodore want the gauge mounted?", [J("2023-05-22")])
q("al-05", "alias", "What did Ossi quote for the oak in 2023?", [J("2023-09-18")])
q("al-06", "alias", "When is Mari's birthday?", ["reference/people/marit-lund.md"])
q("al-07", "alias", "What's the KSC membership fee?", ["reference/places/kvitsund-sailing-club.md"])
q("al-08", "alias", "How long do I wait between HWO coats?", ["reference/techniques/hardwax-oil.md"])
q("al-09", "alias", "What year was Hal born?", ["reference/people/halvard-lund.md"])
# temporal
q("te-01", "temporal", "What did I do on 14 March 2024?", [J("2024-03-14")])
q("te-02", "temporal", "What happened last Tuesday?", [J("2025-10-07")], now="2025-10-09T10:00:00")
q(
    "te-03",
    "temporal",
    "What did I note in the ledger on the morning of 3 October?",
    ["aster/ledger/2025-10.md"],
)
q("te-04", "temporal", "What was going on in August 2024?", [J("2024-08-21")])
q("te-05", "temporal", "What did I write yesterday?", [J("2025-09-16")], now="2025-09-17T09:00:00")
q("te-06", "temporal", "What happened between Christmas and New Year 2023?", [J("2023-12-27")])
q("te-07", "temporal", "What was I doing in the first week of June 2024?", [J("2024-06-04")])
q("te-08", "temporal", "What did I observe on 28 August?", ["aster/ledger/2025-08.md"])
q("te-09", "temporal", "What did I write in May 2023?", [J("2023-05-22")])
# update
q(
    "up-01",
    "update",
    "Where do we buy our oak now?",
    [J("2025-03-11")],
    old=["archive/supplier-notes-2023.md"],
)
q(
    "up-02",
    "update",
    "What hourly rate does the workshop charge for commissions now?",
    [J("2025-02-03")],
    old=["archive/2023-workshop-rates.md", J("2024-01-08")],
)
q(
    "up-03",
    "update",
    "How often does Tidewatch read the sensor now?",
    [J("2024-06-04")],
    old=["archive/tidewatch-v1-design.md"],
)
q(
    "up-04",
    "update",
    "What day is Hal's physio now?",
    [J("2025-06-12")],
    old=["reference/people/dr-vesna-vukovic.md"],
)
q("up-05", "update", "Is Ledgerline still being rewritten in Rust?", [J("2024-09-09")], old=[J("2024-04-10")])
q(
    "up-06",
    "update",
    "Where is the Tidewatch dashboard hosted these days?",
    [J("2025-09-16")],
    old=["reference/projects/tidewatch.md"],
)
q(
    "up-07",
    "update",
    "Who does the workshop's annual accounts now?",
    [J("2025-04-02")],
    old=["reference/people/agnes-tufte.md"],
)
q("up-08", "update", "Are we still selling the van?", [J("2025-07-08")], old=[J("2025-05-06")])
q(
    "up-09",
    "update",
    "Is Lise leaving for the boatbuilding school?",
    ["aster/ledger/2025-09.md"],
    old=[J("2025-08-12")],
)
# territory
q(
    "tr-01",
    "territory",
    "What is my name and what am I here to do?",
    ["system/identity.md"],
    also=[J("2023-03-02")],
)
q(
    "tr-02",
    "territory",
    "What are my rules about honesty?",
    ["system/covenant/honesty.md"],
    also=[J("2025-01-13")],
)
q(
    "tr-03",
    "territory",
    "Do I tell people about Hal's health?",
    ["system/covenant/privacy.md"],
    also=["reference/people/dr-vesna-vukovic.md", J("2025-06-12")],
)
q("tr-04", "territory", "What do I value most?", ["system/values.md"], also=[J("2023-11-06")])
q(
    "tr-05",
    "territory",
    "How am I supposed to sound when I write?",
    ["system/identity.md"],
    also=[J("2024-04-10")],
)
q(
    "tr-06",
    "territory",
    "What do I do when I make a mistake?",
    ["system/values.md", "system/covenant/honesty.md"],
    also=[J("2025-01-13")],
)
q(
    "tr-07",
    "territory",
    "Am I allowed to spend money without asking?",
    ["system/values.md"],
    also=[J("2024-08-21"), "aster/ledger/2025-08.md"],
)
q(
    "tr-08",
    "territory",
    "What do I do with a secret someone tells me?",
    ["system/covenant/privacy.md"],
    also=[J("2025-08-12")],
)
q("tr-09", "territory", "Why does rest matter to me?", ["system/values.md"], also=[J("2025-06-12")])
# none
for i, t in enumerate(
    [
        "What's Hal's blood type?",
        "When did we buy the CNC router?",
        "What did Ruben's wife say about the regatta?",
        "What's the Wi-Fi password at the sailing club?",
        "How much did the Tidewatch solar panel cost?",
        "What's ticket LL-999 about?",
        "What's Dr V's home address?",
        "Did I ever book flights to Lisbon?",
        "What's the recipe for Marit's hazelnut cake?",
    ],
    1,
):
    q(f"no-{i:02d}", "none", t, [])
if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "workshopvault-data"
    for d in Q:
        for p in d["gold"] + d.get("old", []) + d.get("also", []):
            assert os.path.exists(os.path.join(out, "vault", p)), (d["id"], p)
    with open(os.path.join(out, "queries.jsonl"), "w") as fh:
        for d in Q:
            fh.write(json.dumps(d, ensure_ascii=False) + "\n")
    print(len(Q), Counter(d["class"] for d in Q))
