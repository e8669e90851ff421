"""journal/, 2023 and 2024. Hand-written for memsearch, CC0."""

F: dict[str, str] = {}


def add(path: str, text: str) -> None:
    F[path] = text.lstrip("\n")


add("journal/2023-01-09.md", """
# 2023-01-09

First day. Jo set me up on the old laptop at the flat (flat 3, 11 Gull Terrace) with a mug of tea
going cold beside it.

Her brief, verbatim: "Remember things so I can forget them. And tell me when I'm repeating myself."

Started a list of what she carries in her head:
- co-op phone 01632 960142, she answers it from her mobile when the workshop's shut
- co-op hours Tue-Sat 10:00-18:00, Wed evening volunteers
- Tobi's school, Mags's shifts, Ruben's walk times (Ruben = the dog)
- "the spreadsheet" (stock), which is three spreadsheets

TODO: ask Jo which of the three spreadsheets is the real one.
""")

add("journal/2023-01-23.md", """
# 2023-01-23

Jo up till 01:00 on the booking app again. She's calling it Tally because "it keeps a tally and I'm
out of ideas". Flask, SQLite, one file for now.

The kettle at the flat boiled dry while she was debuging. Smoke alarm, Ruben howling, Mags in the
doorway in a towel. Jo: "new kettle goes on the list". Added: kettle (for the kitchen, not a project).

Raised quiet hours with her: I'll stop suggesting things after 21:00. She laughed and said fine.
""")

add("journal/2023-02-06.md", """
# 2023-02-06

Kickoff for the e-assist idea with Fenna de Vries at the Fish Market unit. Fenna brought the guts of a
dead cordless kettle with a motor driver breadboarded into its base, and that's the project name now:
Kettle.

Plan, roughly:
1. mid-drive motor bought in, everything else ours
2. controller board rev A: Fenna lays it out this month, fab at BoardHaus (cheap, 8 days)
3. torque sensor from a bottom-bracket spindle; she has a source
4. pack built on the bench so we can fix it ourselves

Oz sceptical ("another thing with a battery to go wrong") but agreed to test ride.
Budget from the co-op: 1,200 pounds this year. Jo: "not a penny more, I mean it".
""")

add("journal/2023-02-14.md", """
# 2023-02-14

Valentine's. Jo and Mags out at the Anchor for the first time since Tobi was born, more or less.
Adebisi came over on the train from Harwick to mind Tobi and the dog; stayed the night, made jollof,
left the kitchen cleaner than she found it, which Jo found faintly insulting.

Me: reminded Jo at 16:00 to leave the workshop. She left at 17:40. Progress.
""")

add("journal/2023-03-26.md", """
# 2023-03-26

Planning meeting for a charity ride, back room of the Anchor. Jo, Gus Adeyemi, Lachlan, two parents
from the kids' bike library.

- name: the Harbour Loop (Gus's idea; Jo wanted "Tour de Calder", outvoted)
- date: Saturday 17 June
- route: 40 km, flat, harbour to the lighthouse and back along the estuary path
- entry 10 pounds, kids free, money to the kids' bike library
- Gus does marshals. Lachlan finds volunteers

Jo on the walk home: "I've now got three projects and a son." I did not say four.
""")

add("journal/2023-04-11.md", """
# 2023-04-11

Tobi is seven. Train cake (Mags, three attempts, the third held). Four friends, one of whom cried
because the tunnel wasn't chocolate.

Pai rang at teatime and sang down the phone in Portuguese; Tobi held the phone at arm's length and
grinned.

Present from the co-op: a proper bike, a 20-inch, built up by Oz from the library stock. Oz: "he's
not to jump it. He will jump it."
""")

add("journal/2023-05-20.md", """
# 2023-05-20

Tally is live. Volunteers booked the first real repair at 10:14.

- booking slots default to 45 minutes; Jo reckons most jobs fit
- texts go out through TextLoom ("your bike is ready")
- tablet on the wall by stand 1, PIN is the year the co-op started

Bugs on day one: the ready text went out twice for one bike, and a member's surname with an
apostrophe broke the search. Both fixed by 15:00. Jo did a small dance. I've written it down.
""")

add("journal/2023-06-17.md", """
# 2023-06-17

First Harbour Loop. 64 riders, 40 km, dry, a headwind on the way back along the estuary that Gus
described as "character building".

- raised 1,930 pounds
- one puncture, one dropped chain, one child who wanted to go round again
- Gus rode sweep himself, came in last with a family of four and a dog in a trailer

Jo, at the finish: "same again next year but longer". Noted; I'll remind her she said it.
""")

add("journal/2023-07-08.md", """
# 2023-07-08

Ruben (dog) limping, left fore. Harbourside Vets on the quay: soft tissue, rest, no beach for two
weeks. 68 pounds. He ate a sock in the waiting room and brought it back up outside, which the vet
said was "very considerate".

Reminder set for his recheck at Harbourside on 2023-07-22.
""")

add("journal/2023-08-15.md", """
# 2023-08-15

Double booking in Tally. Two volunteers on two tablets both booked 14:00 Saturday on stand 2.
Logged as TAL-117.

Cause: read the slot, show the form, write it back; whoever saves last wins, silently.
Fix (Jo, this aftrenoon): a version number on each slot row; the save only lands if the version is
what you read. Otherwise "someone just booked this, sorry" and reload.

She tested it by racing me. I lost, correctly.
""")

add("journal/2023-09-12.md", """
# 2023-09-12

Jo's bloods back. Underactive thyroid. Dr Okonjo at Quayside Medical started levothyroxine 50 mcg
each morning, recheck in 8 weeks.

The tiredness "isn't just the co-op then". She seemed relieved, then annoyed at being relieved.

My job: the morning reminder, on waking, and no coffee suggestion until 30 min after. I asked whether
she wanted Mags to know; she said Mags already knew, she'd told her before she told me. Fair.
""")

add("journal/2023-10-03.md", """
# 2023-10-03

Wednesday evening volunteers did 14 wheels tonight, a record. Lachlan's rota is working: two experienced
plus two new each week.

Bea (treasurer) at the committee: membership stays at 30 pounds a year; reserves healthy; the Kettle
budget "is not a bottomless pit, Jo". Jo kept a tally of how many times Bea said "bottomless": three.

Oz wants a proper tensiometer for the wheel nights; Bea said yes if it comes out of the tool fund.
""")

add("journal/2023-11-14.md", """
# 2023-11-14

Kettle decision, Fen and Jo at the Annex bench: rev B goes sensorless. No position sensors in the motor,
field-oriented control with an observer.

Why: fewer wires in the motor cable (the connector has failed twice), smoother, quieter.
Risk, per Fen: starting from standstill under load. "It'll be fine, everybody does it now."

Jo asked me to note that she asked "what about hills" and Fen said "we'll tune it". Noted, as asked.
""")

add("journal/2023-12-24.md", """
# 2023-12-24

Christmas Eve at Gull Terrace. Pai came on the 62 bus and a taxi, with a bag of salt cod and a cake
from the Lower Tarn shop. Tobi's job: keep Ruben away from the cod. Partial success.

A Christmas card arrived at the co-op from Ruben Castellanos at Velotrade, "to the team and your dog
who stole my name". Jo put it on the till.

Pai, late, to Jo, in Portuguese; I caught only "orgulho". I didn't ask.
""")

add("journal/2023-summer-log.md", """
# Summer log, 2023

Short notes, same file, because the summer ran together.

## 2023-07-22
Ruben's recheck at Harbourside: fine, back on the beach. Dawn Dippers at Shingle Cove, 16 degrees,
Jo stayed in 20 minutes and came out blue-lipped and proud.

## 2023-08-02
Fen's rev A board drives the motor on the bench. Jo rode the test rig round the Annex car park.
Oz: "it works. I'm still not impressed." (He was impressed.)

## 2023-08-26
Bank holiday weekend. The co-op shut, Jo didn't. Reminded her about the quiet hours at 21:05;
she said "yes yes" and carried on. I left it. Care is not nagging.
""")

add("journal/2024-01-08.md", """
# 2024-01-08

Jo decided: Tally moves to Postgres. The nightly stock job and the tablet keep tripping over each
other and the locking errors are getting daily. "SQLite was a toy, time to grow up."

Plan: new Postgres on the Larchbox VPS, migrate over Easter, two weeks of both running side by side.
I drafted the migration checklist; it's in the archive folder now with the plan.
""")

add("journal/2024-01-29.md", """
# 2024-01-29

Tobi's swimming moved to Tuesdays at 17:15 (Calder Baths rejigged the lessons). Mags does Tuesdays
now, Jo swaps to Thursday pickups. (Two seperate calendar entries; TODO merge them.)

Co-op: quiet January. Oz trued a tandem wheel with 48 spokes and then had a lie down.
""")

add("journal/2024-02-07.md", """
# 2024-02-07

Oz ran a wheel night for the Wednesday crew with the new tensiometer. Everyone got a card and drew their
wheel's numbers round a circle. Three people learned that "true" isn't "tensioned".

Lachlan rewrote the volunteer induction into six steps with a brakes rule in bold. Printed, laminated,
stuck by the sink.
""")

add("journal/2024-02-20.md", """
# 2024-02-20

Controller rev B boards back from BoardHaus. First power-up on the bench:

```
[  0.012] kettle-fw 0.6.1 boot
[  0.340] motor: observer start
[  1.902] FAULT E_PHASE_B_OC ia=3.1 ib=41.7 ic=2.9
```

Phase B overcurrent on two of five boards. Fen found the first batch has 1 oz copper, not the 2 oz on
the order. Invoice INV-88213 disputed; Jo wrote the email, I tidied the numbers.

And sensorless start on the hill behind the gasworks: motor judders, stalls, Oz walks the bike home.
It is February and three degrees.
""")

add("journal/2024-03-05.md", """
# 2024-03-05

Kettle: back to hall sensors. Fen reverted the sensorless branch this morning:

```
commit a4c91e7
    revert observer start; restore hall-sensor commutation table
```

She took it well. "The hills won." Rev B with halls pulled Oz and 40 kg of sand up the gasworks hill
at 2 degrees without a murmur. Motor cable gets a better connector instead.
""")

add("journal/2024-03-19.md", """
# 2024-03-19

Thyroid recheck. Dr Okonjo put Jo up to 75 mcg of levothyroxine; TSH still high on 50. Recheck 8 weeks.
Changed the morning reminder text. Jo: "more pills, same coffee rule?" Same coffee rule.
""")

add("journal/2024-04-16.md", """
# 2024-04-16

Postgres migration called off. Jo, after a weekend of it: the migration was eating the Easter she
didn't have, and a forum thread pointed out the obvious: turn on WAL mode.

She did. One pragma. The nightly job and the tablet haven't collided since Thursday.
"Two months of plans undone by one line." She's keeping SQLite.

Moved the Postgres plan to the archive. Larchbox VPS stays as is.
""")

add("journal/2024-05-17.md", """
# 2024-05-17

Changed wholesaler. Velotrade's deliveries have slipped to a week or more since January; we had bikes
OTR for three weeks waiting on brake pads. Rang Ruben Castellanos to tell him first; he was decent about it.

First order with Northgate Cycle Supply today: PO-24-0517, 612 pounds (tubes, pads, chains, cables).
Over 250, so Bea signed it too. Next-day delivery if ordered by 14:00. We'll see.
""")

add("journal/2024-05-28.md", """
# 2024-05-28

Offer accepted on 22 Orchard Rise. Three bedrooms, garden, ten minutes from the workshop on a bike.
Jo and Mags danced in the kitchen at Gull Terrace; Tobi joined in without knowing why.

Survey booked for 2024-06-20. Morgage in principle fine. I have made a list; it has 34 items.
""")

add("journal/2024-06-15.md", """
# 2024-06-15

Harbour Loop, second year. New route: 55 km, up over the headland and back along the sea wall.
141 riders. Raised 4,210 pounds.

- the cattle grid on the headland: three riders walked it, one didn't and regretted it
- two sweeps this year, 200 m apart; Gus happy
- Tobi rode the first 5 km with Jo and then "supervised" the finish

Jo at the finish, sunburnt: "told you, longer."
""")

add("journal/2024-06-24.md", """
# 2024-06-24

Orchard Rise is off. The survey came back with movement in the rear wall, possible subsidence, "further
investigation recommended". Jo read it twice, rang the surveyor, and then rang the agent to pull out.

She was calm about it on the phone and not calm after. Mags took Tobi to the beach.
Survey fee gone, solicitor fees partly. We start again. The list of 34 items goes in the archive.
""")

add("journal/2024-07-09.md", """
# 2024-07-09

Fenna traced the overheating on the bakery demo ride last week: the FETs hit 118 degrees on the long
drag up from the quay with a full box. Not a fault, just too much current for too long.

Changes:
- CURRENT_LIMIT_A = 15 in the config (it was 18)
- `thermal_derate()` added: current tapers from 80 degrees, zero at 105

Oz rode it up the quay hill four times. Warm, not cooking. Fenna put the burnt board on the Annex shelf
"as a lesson".
""")

add("journal/2024-07-30.md", """
# 2024-07-30

Offer accepted on 7 Fenwick Lane. A 1930s semi by the old railway path, two streets from Tobi's school.
Survey this time first, before anything else: clean, bar some damp at the back. Completion aimed for
mid-September.

Jo: "don't get excited". She has already measured the shed.
""")

add("journal/2024-08-12.md", """
# 2024-08-12

New phone line at the workshop: 01632 960187. The old number kept ringing Jo's mobile at 22:00 because
of the forwarding; the new line has voicemail and an out-of-hours message instead.

Updated: Tally footer, the webiste, the sign on the door, the Google listing, the texts template.
Still to do: the leaflets (1,000 of them, with the old number; they're going to the Harbour Loop bin).
""")

add("journal/2024-09-20.md", """
# 2024-09-20

Moving day. Gull Terrace to 7 Fenwick Lane.

- van 08:00, two of Oz's friends who "love a sofa"; Mags labelled every box by room and they still put
  the bathroom box in the shed
- Ruben lay in the empty hallway at the flat and refused to leave until Tobi carried his bed out
- first night: chips on the floor, beds not built, nobody cared

Jo, 23:10, on the back step: "we live here." I didn't remind her about quiet hours.
""")

add("journal/2024-10-14.md", """
# 2024-10-14

Osei came in with his wrist strapped. Sprained it catching a falling cargo bike off the lift in bay 2
(Saturday; he didn't mention it till now, of course). Light duties two weeks; the volunteers do the
heavy wheels, he supervises and hates it.

Jo registered at Larchfield Surgery now we've moved. New GP: Dr Sato. First appointment booked for
the thyroid review, 2024-11-12.
""")

add("journal/2024-11-05.md", """
# 2024-11-05

Bonfire Night. Fireworks over the railway path from 18:00. Ruben spent the evening under Tobi's bed;
Tobi spent it under there with him with a torch and the Harbour Tales book.

Jo's message said "bins 5/11 not 6/11"; filed as 2024-11-05, ISO as always.

Crane & Daughters finished the kitchen today, a day early. Jo made the first tea from the new
kettle in the new kitchen and toasted Wynn with it.
""")

add("journal/2024-11-26.md", """
# 2024-11-26

Moved Ruben to Linnet Vets, ten minutes' walk from the house (Harbourside is across town now).
Registration visit: weight 29.4 kg, teeth good, "a bit of a wuss" (vet's words, affectionate).
Booster next due January 2026 at Linnet.
""")

add("journal/2024-12-09.md", """
# 2024-12-09

Somebody tried the back door at Ratchet Street overnight. Scratches round the lock, nothing taken.

Changed the front keypad code to 2093 this morning. Told the keyholders in person, not in the chat.
Alarm company coming Thursday to look at the back door sensor.
""")

add("journal/2024-12-31.md", """
# 2024-12-31

New Year's Eve, first one at Fenwick Lane. Nan and Grandad (Mags's mum and a friend from Harwick) came.
Tobi made it to 23:40 and was carried up.

Jo's year, in her words: "one house that fell down, one that didn't, one board that cooked, a ride
that tripled." My year: fewer missed reminders than last year. Still some.
""")
