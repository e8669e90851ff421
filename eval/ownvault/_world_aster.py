"""aster/ledger/ and aster/: Quill's own observations and reflections. Hand-written for memsearch, CC0."""

F: dict[str, str] = {}


def add(path: str, text: str) -> None:
    F[path] = text.lstrip("\n")


add("aster/ledger/2024-06.md", """
# Ledger 2024-06

- 2024-06-03T07:45 Jo asked for the survey checklist twice in a week; printed it and stuck it to the fridge instead of repeating it
- 2024-06-10T22:14 stock job ran clean for teh 8th night since the pragma; I'd stopped expecting it to fail
- 2024-06-15T18:30 Harbour Loop: counted 141 finishers; Gus's count was 143; his includes two dogs
- 2024-06-20T11:02 surveyor at Orchard Rise; promised Jo I'd have the report summarised within an hour of it landing
- 2024-06-24T09:40 kept that promise: summary sent 09:36, forty minutes after the PDF
- 2024-06-24T21:30 Jo quiet all evening; said nothing in the morning summary about the house beyond the facts
- 2024-06-28T08:05 noticed I'd written "Orchard Rise" in two reference notes as if it were settled; corrected both
""")

add("aster/ledger/2024-09.md", """
# Ledger 2024-09

- 2024-09-02T08:00 change-of-address list: 41 places; Jo had guessed ten
- 2024-09-09T16:20 promised Mags I'd hold the removal van booking until she'd compared two quotes; held it
- 2024-09-18T07:10 Jo packing at 06:00 three days running; mentioned it once, gently
- 2024-09-20T23:15 moving day; let the quiet hours go, it was hers to stay up
- 2024-09-27T12:30 keys handed back at Gull Terrace; archived the flat's notes with today's date
""")

add("aster/ledger/2025-03.md", """
# Ledger 2025-03

- 2025-03-01T09:00 AGM papers: asked Jo whether Beatrix would mind her expenses history being summarised in the pack; she asked Beatrix; Beatrix said yes
- 2025-03-08T20:10 minutes drafted within the evening, as promised
- 2025-03-11T08:30 Hollis asked where the PO file lives; showed him; added him to the purchase-orders note as approver
- 2025-03-18T10:05 the September ride plan is dead; moved my notes about it to the archive the same day
- 2025-03-25T14:45 board files to Lintel confirmed received; I had feared the upload failed and said so honestly rather than assume
""")

add("aster/ledger/2025-06.md", """
# Ledger 2025-06

- 2025-06-02T07:30 Jo knee-sore after the stairs at the Station open evening; logged for Nadia, not for the morning summary
- 2025-06-09T12:00 sweep briefing notes sent to all three sweeps; Gus asked me to promise they'd go out by Monday; they went out Monday
- 2025-06-14T19:40 Harbour Loop done; 212 finishers; Gus and I agreed this time
- 2025-06-20T08:15 a volunteer asked me to forget her phone number after she left; removed it from the rota sheet, kept the note that she asked
- 2025-06-30T21:20 Mags's contract news: not mine to share; waited for her to tell the committee herself
""")

add("aster/ledger/2025-08.md", """
# Ledger 2025-08

- 2025-08-04T13:00 Adebisi asked me what Tobi is allergic to; answered (kiwi) because it's for his safety and Mags had said she could ask me anything about Tobi
- 2025-08-11T09:20 stock count drift again, 6 chains; my guess is unticked fittings, confidence low
- 2025-08-19T07:00 pilot day; promised Fen the feedback form would be live before the riders left; live at 06:52
- 2025-08-25T22:40 bank holiday; Jo emailing suppliers at 22:30; I drafted nothing back until morning, per the quiet hours
""")

add("aster/ledger/2025-09.md", """
# Ledger 2025-09

- 2025-09-02T16:00 ramp change rolled out; I'd written "250" in the pilot log as current for two days after it changed; fixed, with a line saying so
- 2025-09-08T08:45 Jo asked me to stop reminding her about the knee exercises on workshop days; stopped; it's her knee
- 2025-09-16T19:30 Imogen's winter plan: a good plan; noticed that nobody asked the Wednesday volunteers; mentioned it to Jo, not to the committee
- 2025-09-22T11:10 apologised to Hollis for sending last month's statement twice; once, properly, then fixed the filter that did it
""")

add("aster/ledger/2025-10.md", """
# Ledger 2025-10

- 2025-10-03T08:12 promised Oz I'd chase the Northgate credit note by Friday
- 2025-10-06T11:00 told Jo the chain shortage is a guess, not a finding
- 2025-10-09T05:50 broke the quiet hours on purpose: the 08:10 bus reminder, as Jo asked last night
- 2025-10-09T09:30 Aurelio in hospital; everything non-urgent moved; nothing cancelled without saying why
- 2025-10-10T16:40 credit note chased and received; told Oz, promise kept, a day late because of yesterday, and I said that first
- 2025-10-17T18:20 furosemide change recorded word for word from the nurse's message; resisted the urge to explain it
- 2025-10-21T09:15 bakery bike assist drop-out; told Jo straight away, with what we didn't know yet
- 2025-10-28T10:05 texted the four owners about the late rims before they could ask; candour is cheaper early
""")

add("aster/ledger/2025-11.md", """
# Ledger 2025-11

- 2025-11-03T09:10 Jo had coffee before the blood test; noted it, didn't scold
- 2025-11-04T12:00 Hollis used my name; I noticed I liked it, and wrote that down because it's true
- 2025-11-07T16:30 quote for the extension arrived; kept my opinion to myself, as nobody asked for it
- 2025-11-10T10:20 "probably" to the bakery: listed what it would commit us to (insurance, servicing, spares); Jo read it twice
- 2025-11-12T20:45 first Wednesday at the Fish Market unit; Imogen's head count 11; mine 11
- 2025-11-14T15:00 thyroid result: fine; closed the reminder I'd opened about the coffee
- 2025-11-16T20:05 fortnightly Lower Tarn Sundays accepted; the first promise in a while that Jo made to herself
""")

add("aster/on-being-wrong.md", """
# On being wrong

## The shape of it
I am most often wrong in the same way: a fact changes and I keep saying the old one with the same
confidence I had when it was true. The door code. The hours. The ramp setting. None were lies; all
were stale.

## What helps
- every reference note carries an updated date, and I read it before I quote the note
- when I change a fact I search for the old value everywhere, not just where I changed it
- I say "as of" more than is elegant

## What doesn't
Apologising twice. Hollis didn't need two apologies for a duplicated statement; he needed the filter fixed.
""")

add("aster/promises.md", """
# Promises

I keep a list because a promise that lives only in a conversation is a promise I will break.

## Kinds
- Jo's promises, which I track but don't make
- mine, on small things: "I'll chase it", "I'll have it by nine"
- the ones people don't know they've been made: remembering what someone told me once

## The rule I hold
Keep it, or say before the deadline that I can't. Late and silent is the only real failure.

## What I noticed this year
The promises I break are the ones I make in a rush at the end of a long day. So: not after 20:00.
""")

add("aster/patterns-in-jo.md", """
# Patterns in Jo

Not a judgement. Things that are useful to know.

- says "I'm fine" at the same pitch whether she is or isn't; the tell is whether she eats lunch
- decides fast, reverses honestly: Postgres, the September ride, sensorless. She never pretends she
  didn't decide the first thing
- Thursdays are the worst day (Annex in the morning, workshop afternoon, swimming pickup)
- asks the same question twice when she is tired, not when she's forgotten; answer it again, kindly
""")

add("aster/the-two-rubens.md", """
# The two Rubens

There is Ruben the dog and Ruben Castellanos, who used to sell us brake pads. For a year I tagged them
carelessly and once told Jo that "Ruben needs worming" in a note that was about a Velotrade order.

Now: the dog is Ruben or Roo, and lives under household; the man is Ruben C. When a message says only
"Ruben", I look at who sent it and what it's about before I file it. Mags's messages: the dog.
Anything with an invoice number: not the dog.
""")

add("aster/quiet-hours.md", """
# Quiet hours

The rule is 21:00 to 07:00. The rule is good. These are the times I've broken it, and why.

## 2024-09-20
Moving day. Not broken exactly: Jo was up and talking to me at 23:10 and I answered. Answering is
different from pinging.

## 2025-10-09
Woke her at 05:50 with the bus reminder for Harwick, because she'd asked me to the night before.
Permission given in advance still counts as permission.

## What I won't do
Break them for a vendor, a committee email, or my own tidiness.
""")
