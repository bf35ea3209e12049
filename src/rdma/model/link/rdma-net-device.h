/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_NET_DEVICE_H
#define RDMA_NET_DEVICE_H

#include "ns3/compact-deque.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/mac48-address.h"
#include "ns3/member-event.h"
#include "ns3/net-device.h"
#include "ns3/rdma-frame.h"
#include "ns3/rdma-header.h"
#include "ns3/rdma-port-owner.h"
#include "ns3/rdma-sim.h"
#include "ns3/serialization-clock.h"
#include "ns3/traced-callback.h"

#include <array>
#include <deque>

namespace ns3
{

class RdmaChannel;
class RdmaPortOwner;

/**
 * \ingroup rdma
 * An Ethernet port with 8 priority classes and IEEE 802.1Qbb PFC, used by switches and
 * NICs alike.
 *
 * Transmit order: PFC frames first (MAC control, never paused), then the strict class
 * (control packets: ACK, NACK, CNP), then round robin over the other classes, then, if
 * all queues are empty, the pull source (a NIC hands over its next data packet only when
 * the port is free, so thousands of QPs never sit in a port queue). A class paused by a
 * received PFC frame is skipped until its pause expires or a resume arrives.
 *
 * There is one transmit event per busy port. Serialization times come from a
 * SerializationClock, so the long-run rate is exact.
 */
class RdmaNetDevice : public NetDevice
{
  public:
    /// Called for every received non-PFC frame, with its already-parsed header.
    using RxCallback = Callback<void, Ptr<RdmaNetDevice>, Ptr<Packet>, const RdmaHeader&>;
    /// Asked for the next data frame when the queues are empty; argument: paused classes.
    using PullCallback = Callback<Ptr<Packet>, uint8_t>;

    /// A PFC frame received: its class and quanta (0 = resume).
    using PfcTracedCallback = void (*)(uint8_t priority, uint16_t quanta);

    static TypeId GetTypeId();
    RdmaNetDevice();
    ~RdmaNetDevice() override;

    void Attach(Ptr<RdmaChannel> channel);
    void SetRdmaReceiveCallback(RxCallback cb);
    void SetPullSource(PullCallback cb);
    /**
     * Hand frames to \p owner by direct calls (instead of the two callbacks above),
     * naming this device \p port to it; \p pulls: the owner has frames to give
     * (RdmaPortOwner::PullFrame) when the queues are empty.
     */
    void SetOwner(RdmaPortOwner* owner, uint32_t port, bool pulls = false);

    /// Queue \p p in class \p priority; \p meta is kept in the frame (RdmaFrame::meta),
    /// which the owner sees when the frame leaves (RdmaPortOwner::FrameDequeued).
    void Enqueue(Ptr<Packet> p, uint8_t priority, uint32_t meta);
    /// Queue frame \p f (its meta kept) in class \p priority.
    void Enqueue(const Ptr<RdmaFrame>& f, uint8_t priority);
    /// Send a PFC frame for one class: pause for \p quanta (512 bit times each), 0 resumes.
    void SendPfc(uint8_t priority, uint16_t quanta);

    /// Start a transmission if the port is idle and something may be sent.
    void TryTransmit()
    {
        // Inline, the commonest case: busy, its end of transmission scheduled (a switch
        // queues most frames behind one), where the call would cost more than the test.
        if (m_busy && !m_txCompleteDeferred)
        {
            return;
        }
        TryTransmitIfFree();
    }

    /**
     * The owner's pull source, empty until now, will have a frame later (e.g. a QP now
     * waits for its pacing time): if the port is busy and left its end of transmission
     * unscheduled, schedule it, so that the port pulls when the frame is out (see
     * RdmaPortOwner::HasFramesToPull). Otherwise nothing.
     */
    void NotifyPullable();

    DataRate GetDataRate() const;
    uint64_t GetBitRate() const;
    /// Change the rate (takes effect with the next frame).
    void SetDataRate(DataRate rate);
    /**
     * Take the link end down or up. Down: queued frames are discarded (through the
     * owner's FrameDequeued, so a switch releases their buffer) and counted, nothing is sent,
     * and frames arriving (in flight when the link was cut) are lost.
     */
    void SetLinkUp(bool up);
    /// Frames lost because the link was down.
    uint64_t GetLinkDownDrops() const;
    Ptr<RdmaChannel> GetRdmaChannel() const;
    uint8_t GetStrictPriority() const;
    /// Bytes waiting in the queue of one class.
    uint64_t GetQueueBytes(uint8_t priority) const;
    bool IsPaused(uint8_t priority) const;
    /// Bit i set when class i is paused by the peer.
    uint8_t GetPausedMask() const;
    /**
     * Ignore (or honour again) the peer's pauses of one class, as a PFC watchdog does in
     * its forward action. The pause state is still kept (IsPaused), only not obeyed.
     */
    void SetPfcIgnored(uint8_t priority, bool ignored);
    /// Whether class \p priority is held back now: paused by the peer, and obeyed.
    bool IsHeldByPfc(uint8_t priority) const;
    /// The frames waiting in class \p priority, oldest first (for inspection; the queue
    /// holds one reference to each).
    const CompactDeque<RdmaFrame*>& GetQueue(uint8_t priority) const;

    /**
     * Take the oldest frame out of class \p priority without sending it (a PFC watchdog
     * discarding a stormed queue); the owner is not told (the caller accounts for it).
     * \return the frame, or nullptr if the class is empty
     */
    Ptr<RdmaFrame> TakeQueuedHead(uint8_t priority)
    {
        CompactDeque<RdmaFrame*>& q = m_queues[priority];
        if (q.empty())
        {
            return nullptr;
        }
        RdmaFrame* f = q.front();
        q.pop_front();
        if (q.empty())
        {
            m_nonEmpty &= ~(1u << priority);
        }
        m_queueBytes[priority] -= f->GetSize();
        return Ptr<RdmaFrame>(f, false); // the queue's reference, handed over
    }

    /// Non-PFC frames through this port, for byte conservation (ByteLedger).
    struct Ledger
    {
        FrameTally sent;              ///< transmitted (each transmission)
        FrameTally received;          ///< arrived, link up
        FrameTally dequeued;          ///< left a queue to be sent (size as queued)
        FrameTally lostArriving;      ///< arrived while the link was down
        FrameTally discardedQueued;   ///< discarded from the queues as the link went down
        uint64_t pfcLostArriving = 0; ///< PFC frames that arrived while the link was down
        uint64_t pfcDiscarded = 0;    ///< PFC frames discarded as the link went down
    };

    const Ledger& GetLedger() const;

    /// Cache lines from HotData() that hold the fields a frame's arrival, queueing and
    /// transmission read (the members from m_linkUp through the ledger's dequeued tally,
    /// kHotSpanBytes; docs/design.md, "The hot path", says why they are not aligned).
    static constexpr uint32_t kHotLines = 9;
    /// The bytes from m_linkUp through the ledger's dequeued tally: 540 (static_assert in
    /// the constructor, so that a layout change is caught at compile time). kHotLines
    /// lines hold all of them where m_linkUp falls in the first kHotLines * 64 -
    /// kHotSpanBytes (36) bytes of a line. (m_linkUp is at byte 28 of the object, which
    /// malloc aligns to 16: for half of the ports all of them are in those lines, for
    /// the others the last 8 or 24 bytes, the end of the tallies, are not.)
    static constexpr uint32_t kHotSpanBytes = 540;

    /// Where the fields that a frame's arrival, queueing and transmission read begin
    /// (kHotLines lines).
    const void* HotData() const
    {
        return &m_linkUp;
    }

    uint64_t GetTxBytes() const;  ///< frame bytes sent
    uint64_t GetTxFrames() const; ///< frames sent

    /// Called by the channel when a frame has fully arrived.
    void Receive(Ptr<Packet> p);
    /// A frame arrives with its header parsed (how the channel delivers frames).
    void Receive(const Ptr<RdmaFrame>& f);
    /// A frame from another MPI rank (RdmaRanks::ListenRecords): its header's wire bytes
    /// \p bytes (\p size of them), arriving after \p delay, under the uid \p uid its
    /// sender reserved (0: none, one is taken now).
    void ReceiveRemote(Time delay, uint32_t uid, const uint8_t* bytes, uint32_t size);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    /// Queues a frame built with CreateRdmaFrame in its header's class.
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    friend class FabricLayout; ///< reads the port's layout (model/sim)

    /// The next frame to send, or nullptr.
    Ptr<RdmaFrame> SelectNext();

    /// Tell the owner, if any, that \p f leaves queue \p priority.
    void NotifyDequeued(RdmaFrame& f, uint8_t priority)
    {
        if (m_owner)
        {
            m_owner->FrameDequeued(m_ownerPort, f, priority);
        }
    }

    /// Empty the class queues, giving back their references.
    void ClearQueues();
    void TransmitComplete();
    /// The end of transmission's event.
    using TxEndEvent = MemberEvent<RdmaNetDevice, &RdmaNetDevice::TransmitComplete>;
    /// m_busy, after ending a deferred transmission whose slot has passed.
    bool StillBusy();
    /// TryTransmit, once the port is known not to be busy with a scheduled end.
    void TryTransmitIfFree();
    /// Schedule the deferred end of transmission in its reserved slot.
    void ScheduleDeferredTxComplete();

    void HandlePfc(const RdmaHeader& h);
    /// Fire the Sniffer trace with \p f as on the wire, sent by this port (\p tx) or
    /// received (rdma-net-device-sniffer.cc).
    void Sniff(const RdmaFrame& f, bool tx);
    void PauseExpired(uint8_t priority);

    // The fields a frame's arrival and transmission read come first, together, so
    // that they span few cache lines (HotData).
    bool m_linkUp;
    bool m_busy;
    /// m_busy, and its end of transmission not scheduled (see TryTransmit): its slot is
    /// (m_txEndTs, m_txEndUid), with context m_txEndContext.
    bool m_txCompleteDeferred;
    bool m_ownerPulls; ///< m_owner gives frames when the queues are empty
    bool m_honourPfc;
    uint8_t m_strictPriority;
    uint8_t m_pausedMask;
    uint8_t m_pfcIgnored; ///< bit c: pauses of class c are not obeyed (SetPfcIgnored)
    uint8_t m_nonEmpty;   ///< bit c: m_queues[c] holds frames
    uint8_t m_rrNext;
    uint32_t m_ownerPort;   ///< this device's port number at m_owner
    RdmaPortOwner* m_owner; ///< if set, called instead of the callbacks
    uint64_t m_txEndTs;
    uint32_t m_txEndUid;
    uint32_t m_txEndContext;
    DataRate m_rate;
    SerializationClock m_clock;
    Ptr<RdmaChannel> m_channel;
    CompactDeque<Ptr<RdmaFrame>> m_pfcQueue;
    std::array<uint64_t, kRdmaNumPriorities> m_queueBytes;
    // Ring buffers that allocate nothing until used: a 10,000-host fabric has ~60,000
    // ports, most of whose classes never queue a frame.
    // Raw pointers, each holding one reference (taken by Enqueue, handed over by
    // TakeQueuedHead): ns-3's Ptr has no move, so a queue of Ptrs counted each frame in
    // and out several times.
    std::array<CompactDeque<RdmaFrame*>, kRdmaNumPriorities> m_queues;
    TracedCallback<Ptr<const Packet>> m_snifferTrace; ///< frames as RoCEv2 bytes (captures)
    TracedCallback<Ptr<const Packet>> m_macRxTrace;
    TracedCallback<Ptr<const Packet>> m_macTxTrace;
    uint64_t m_txBytes;
    uint64_t m_txFrames;
    Ledger m_ledger; ///< (its first three tallies are the hot ones)
    // The hot fields end here (kHotLines lines from m_linkUp cover them).

    uint64_t m_linkDownDrops;
    Ptr<Node> m_node;
    Mac48Address m_address;
    uint32_t m_ifIndex;
    uint16_t m_mtu;
    std::array<EventId, kRdmaNumPriorities> m_pauseExpiry;

    RxCallback m_rxCallback;
    PullCallback m_pullSource;

    Ptr<TxEndEvent> m_txComplete;

    TracedCallback<Ptr<const Packet>> m_linkDownDropTrace;
    TracedCallback<uint8_t, uint16_t> m_pfcRxTrace;
};

} // namespace ns3

#endif /* RDMA_NET_DEVICE_H */
