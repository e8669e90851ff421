"""journal/, 2025. Hand-written for memsearch, CC0."""

F: dict[str, str] = {}


def add(path: str, text: str) -> None:
    F[path] = text.lstrip("\n")


add("journal/2025-01-13.md", """
# 2025-01-13

Two things.

1. Tally moved off Larchbox to a small VPS at Brinkhost over the weekend. Larchbox had three outages in
   December and support answered in four days. Jo did the move Saturday night; downtime 11 minutes.
2. Committee decided to move the Harbour Loop to September this year: June was hot last time and two
   marshals have weddings. Gus "not thrilled". Jo asked me to check the insurer's notice date for a
   September event.
""")

add("journal/2025-01-27.md", """
# 2025-01-27

Renewed the lease on the Fish Market unit: three years, 410 pounds a month (up from 365). The
landlord wanted five years; Jo held out for three and a break clause.

Fen's electronics bench stays where it is. The battery cabinet gets a proper vent, landlord pays half.
""")

add("journal/2025-02-10.md", """
# 2025-02-10

New opening hours from today: Tue-Sat 09:30-17:30. Earlier start for the commuter drop-offs, earlier
finish so Oz and Jo stop closing up at half six.

Changed: door sign, website, Tally's "open till" in the texts, the answerphone. Three people turned up at
17:45 anyway. They'll learn.
""")

add("journal/2025-03-03.md", """
# 2025-03-03

Took Pai to the heart clinic in Harwick. Weight steady, ankles a bit puffy. They kept the furosemide
at 20 mg for now, bisoprolol the same. Next review in six months unless the swelling comes back.

On the bus back he said the nurse was "too young to be so bossy" and then fell asleep on Jo's shoulder.
""")

add("journal/2025-03-08.md", """
# 2025-03-08

AGM at Ratchet Street, 31 members and a box of pastries from Crumb & Co.

- Beatrix stood down as treasurer after six years; standing ovation, she hated it
- Hollis Tran elected treasurer, unopposed
- membership goes to 36 pounds a year (first rise since we started); concession stays 12
- motion to open Sundays: lost, 9 to 20
- Kettle report from Fen: rev C coming, pilot with a local business in the summer

Minutes drafted by me, checked by Jo, sent by Hollis. Bea took the last pastry "as is my right".
""")

add("journal/2025-03-18.md", """
# 2025-03-18

Reversed: the Harbour Loop stays in June. The marina festival moved to September, so the sea wall is
closed that weekend anyway, and Cairn need a month's more notice for a new date. Ride date: 14 June.
Gus: "told you". Jo: "yes Gus".

Kettle: controller board rev C sent to Lintel today. Files: `kcb_revc.kicad_pcb` plus gerbers and the
BOM. Ten working days. Bigger copper pour, the NTC right next to the FETs this time.
""")

add("journal/2025-04-02.md", """
# 2025-04-02

Lachlan's last Wednesday before the move to Inverkell. The Wednesday volunteers gave him a wheel they'd
built with 36 different coloured spokes; it is hideous and he cried.

Imogen Price takes over as volunteer coordinator from today. She's been shadowing since February.
First thing she did: colour-coded the rota. Second thing: asked who actually reads the chat.
""")

add("journal/2025-04-22.md", """
# 2025-04-22

The hydraulic workstand in bay 2 got its six-monthly service: new seals, fresh oil, the foot pedal no
longer sticks (for now). Engineer said the ram is good for another ten years.

Jo's thyroid review with Dr Sato: TSH in range, "stable, carry on". Next bloods October.
""")

add("journal/2025-05-06.md", """
# 2025-05-06

TextLoom started throttling on Saturday's batch of ready texts. Tally worker log:

```
2025-05-03 10:41:07 sms send failed: ERR_THROTTLED (retry_after=600)
2025-05-03 10:41:07 sms send failed: ERR_THROTTLED (retry_after=600)
```

Twenty-two people didn't get told their bikes were ready. That, plus the price doubling: switched to
Pingpost today. Jo rewired the webhook, I rewrote the three templates (no exclamation marks; Jo put
one back in the ready text, which is her call). Test text to Jo's phone at 15:12.
""")

add("journal/2025-05-27.md", """
# 2025-05-27

Dawn Dippers season back on for Jo: 07:00, Shingle Cove, 12 degrees. In for 9 minutes. "Honestly fine."

Afternoon: first physio session for the knee, Nadia at Harbour Physio. Patellar tendon, not the joint.
Squats against the wall that look like nothing and hurt like everything. Daily.
""")

add("journal/2025-06-14.md", """
# 2025-06-14

Harbour Loop, year three. 212 riders, 6,075 pounds raised, and the sea wall open (thank you marina).

- two sweeps again, plus a third for the kids' 10 km
- Tobi rode the whole kids' loop and demanded a medal; there were medals
- one crash on the headland descent, grazes only; first aid by the sweep, as rehearsed

Gus made a speech. It was long. Nobody minded.
""")

add("journal/2025-06-30.md", """
# 2025-06-30

A letter from the Station, read out at breakfast in a grand voice:

> Dear Marguerite, we are pleased to confirm the renewal of your contract as Senior Instrument
> Technician for a further three years from 1 August 2025...

Celebrated with chips on the harbour wall. Open day at the Station this Saturday; Tobi wants to drive
the ROV again.

Ruben's annual check at Linnet: all fine, weight 30.1 kg, "eats well" (understatement).
""")

add("journal/2025-07-15.md", """
# 2025-07-15

Tally: default repair slot is now 60 minutes. Oz's case: jobs were overrunning the old slots and
the queue slid by an hour every Saturday.

Deployed as an env change on the server, no code:

```
TALLY_SLOT_MINUTES=60
```

plus new image `tally:2025.07.1` for the label change on the booking form.
""")

add("journal/2025-08-04.md", """
# 2025-08-04

Adebisi arrived for the fortnight, on the 11:20 from Harwick with a suitcase mainly of pepper.
Tobi has moved into the box room so she can have his bed; this was his own idea and he wants credit.

Jo and Mags out to the Anchor on Thursday; Adebisi "will manage, I raised four".
""")

add("journal/2025-08-19.md", """
# 2025-08-19

Kettle pilot starts. Three of Crumb & Co's cargo bikes fitted over the weekend, running firmware v1.0.3.
Riders: Dario, Ola and Maeve. They do the morning bread run round the harbour cafes.

- weekly feedback form, Fridays
- pilot log started (journal/2025-kettle-pilot-log.md)
- spare brick and charger at the bakery; a second spare at the Annex

Jo, watching them go: "it's real now." Then: "oh god, it's real now."
""")

add("journal/2025-09-02.md", """
# 2025-09-02

Tobi started Year 5 at Saltings. New teacher, Mr Achebe, "is funny and knows about trains".
Swimming moved again: Thursdays at 16:30 from this week. Mags drops, Jo collects.

Kettle: the bakery riders say the assist kicks in "like being shoved". Fen changed the ramp:
ASSIST_RAMP_MS = 400 (from 250). Rolled out to all three bikes this afternoon.
""")

add("journal/2025-09-16.md", """
# 2025-09-16

Imogen sent round her winter plan for the volunteers:
- Wednesday sessions move to the Fish Market unit November to February (it has heating; Ratchet Street
  has a heater and optimism)
- a second Saturday shift if we get six more volunteers
- no-shows: a friendly call after the second, not a chat message

Committee liked it. Hollis asked what the heating costs. Imogen had the number (recieved from the landlord that morning). Hollis was charmed.
""")

add("journal/2025-09-29.md", """
# 2025-09-29

Email from Saltings, forwarded by Mags to both of us:

> Tobiah has settled well into Year 5. His reading is well above the expected level and he has been
> asked to help run the class library. We'd like to see a little more care with written working in maths.

His view of "written working": "but I know the answer". Both parents said the same thing their parents said.
""")

add("journal/2025-10-06.md", """
# 2025-10-06

Quiet Monday. Stock check at the workshop (TODO: recount the 9-speed ones): 14 chains short of what Tally thinks we have. Either
volunteers are fitting chains without ticking them off or the chains are walking. Imogen to remind
the Wednesday crowd. I'm guessing the first; I said "guess" when I told Jo.

Dippers: Jo's last swim of the season, 13 degrees, 11 minutes. She says she'll do winter. She won't.
""")

add("journal/2025-10-09.md", """
# 2025-10-09

Aurelio fell in the kitchen at 06:30. Neighbour heard him, called the ambulance. Harwick General:
nothing broken, bruised hip, but ankles swollen and breathless. They're keeping him two nights.

Jo on the 08:10 bus to Harwick. I cancelled her morning, told Oz, moved Tuesday's Kettle call.
Rang the carers' agency (Tarnside Home Care) about visits when he gets home; assessment Monday.

I broke quiet hours at 05:50 tomorrow to remind her of the bus. She'd asked me to.
""")

add("journal/2025-10-13.md", """
# 2025-10-13

Tarnside Home Care assessment at Lower Tarn: two visits a day from Thursday, morning and teatime.
Pai refused the key safe, then accepted it when the carer, Bronwen, turned out to know his old boat.

Jo is tired in the way that doesn't sleep off. Morning summary kept to three lines all week.
""")

add("journal/2025-10-17.md", """
# 2025-10-17

Two updates.

Pai: the heart failure nurse raised his furosemide to 40 mg in the morning, because of the ankles and
the breathlessness. Weigh daily; ring if up more than 2 kg in three days. I updated his list; Tarn
Pharmacy have the new blister packs from Thursday.

Kettle: firmware v1.1.0 out to the three bakery bikes. Changes: smoother ramp at low speed, logs the
watchdog reset cause, fixes the battery gauge jumping after a charge.
""")

add("journal/2025-10-21.md", """
# 2025-10-21

Bakery bike 3 (frame number CB-03) lost assist for a couple of seconds on Quay Street this morning,
then came back. Maeve carried on. The new firmware logged it:

```
watchdog reset at 0x0800_4C1A
```

Fen says that address is in the torque-sensor filter; a divide that can stall when the reading is
exactly zero. Patch tomorrow. Maeve's verdict: "bit of a hiccup, like me before coffee".
""")

add("journal/2025-10-24.md", """
# 2025-10-24

Half-term started. Tobi at the workshop all day "helping", i.e. sorting the spare-bolts tray into
sizes, which nobody has done in four years. Kept a tally on the back of an envelope: 212 M5 bolts.

Jo went to Lower Tarn in the afternoon; Pai walking with a stick and cross about the stick.
""")

add("journal/2025-10-28.md", """
# 2025-10-28

Northgate delivery didn't turn up Tuesday. Tracking says "at depot" since Saturday:
NCS-DEL-55120. Rang Dele; a van broke down, on Friday's run instead. Bikes waiting on rims: four.

I told the four owners by text straight away instead of waiting to see. Candour over comfort.
""")

add("journal/2025-10-31.md", """
# 2025-10-31

Halloween. Tobi as a tide gauge (Mags built it, it has a working float). Ruben in a pumpkin collar for
eleven seconds.

Co-op: the Wednesday crowd's last session at Ratchet Street before the winter move to the Fish Market
unit. They left the workshop cleaner than they found it.
""")

add("journal/2025-11-03.md", """
# 2025-11-03

Monday. Wednesday sessions move to the Fish Market unit from this week. Imogen has put a sign on the
Ratchet Street door.

Jo's thyroid bloods at Larchfield, 08:40, fasting is not needed but she forgot and had coffee anyway.
Will probably be fine; I noted it in case the result looks odd.
""")

add("journal/2025-11-04.md", """
# 2025-11-04

Fen's patch for the torque-filter stall is on bakery bikes 1 and 2; bike 3 tomorrow when Maeve's back.
No repeats since the 21st.

Hollis asked for the month's POs early because he's away next week. Sent. He said "thanks Quill" which
is the first time anyone on the committee has addressed me by name.
""")

add("journal/2025-11-07.md", """
# 2025-11-07

Friday. Pai's weight up 1.2 kg since Tuesday; under the 2 kg line. Rang the nurse anyway because Jo
asked me to; she said keep weighing, no change.

Crane & Daughters sent the quote for the rear extension: 38,400 pounds, start in spring if we say yes by
January. Jo and Mags "will think". I have not been asked to have an opinion.
TODO: pros/cons list? Only if asked.
""")

add("journal/2025-11-10.md", """
# 2025-11-10

Monday. Rain. Oz off with a cold; Imogen covered the front desk and discovered the till drawer sticks.

Kettle: Crumb & Co asked whether they can keep the three bikes after the pilot ends in December. Jo
said probably, and then asked me what "probably" commits us to. A lot, I said.
""")

add("journal/2025-11-12.md", """
# 2025-11-12

First Wednesday at the Fish Market unit for the volunteers: 11 people, warm, 9 wheels done, the kettle
in the corner working hard. Imogen counted heads; everyone fitted.

Mags on call this week; Jo did both school runs.
""")

add("journal/2025-11-14.md", """
# 2025-11-14

Thyroid results back from Larchfield: TSH fine. Dr Sato's message: "no change". The coffee didn't matter.

Friday feedback from the bakery: no hiccups all week on any bike. Dario wants a bell that's "less sad".
""")

add("journal/2025-11-16.md", """
# 2025-11-16

Sunday. Went to Lower Tarn, all three of us plus Ruben. Pai walked to the Heron and back without the
stick, then claimed he'd never needed it.

Jo on the bus home: "I should go more." I put a fortnightly Sunday in the calendar as a proposal;
she accepted it at once, which she never does.
""")

add("journal/2025-kettle-pilot-log.md", """
# Kettle pilot log (Crumb & Co)

Weekly notes from the bakery riders' feedback forms. The bikes are numbered 1-3 on the frames.

## 2025-08-22
First week. All three bikes did every run. Riders: assist "too sudden". Battery at 40-55% after the
morning round.

## 2025-09-05
After the ramp change: "much nicer". Ola did the long cafe run with the box full: 31 km, 22% left.

## 2025-09-26
Bike 2: charger port loose, resoldered at the Annex. Rain all week, no electrical trouble.

## 2025-10-24
Bike 3: one assist drop-out on the 21st (the watchdog thing). Otherwise fine. Maeve wants heated grips,
which is not in scope.

## 2025-11-11
Three weeks with no faults on 1 and 2. Bakery asking about keeping the bikes. Dario's bell complaint
continues.
""")
