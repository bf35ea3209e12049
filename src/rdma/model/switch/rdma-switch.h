/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SWITCH_H
#define RDMA_SWITCH_H

#include "ns3/event-id.h"
#include "ns3/load-balancer.h"
#include "ns3/object.h"
#include "ns3/packet-trimmer.h"
#include "ns3/pfc-pause-tracker.h"
#include "ns3/pfc-watchdog.h"
#include "ns3/pint-meter.h"
#include "ns3/rdma-net-device.h"
#include "ns3/rdma-port-owner.h"
#include "ns3/route-table.h"
#include "ns3/switch-mmu.h"
#include "ns3/switch-verdict.h"
#include "ns3/traced-callback.h"

#include <array>
#include <vector>

namespace ns3
{

/**
 * \ingroup rdma
 * The forwarding behaviour of a datacenter switch node: routes each frame to one of the
 * equal-cost egress ports of its destination (LoadBalancer), admits it through the
 * shared-buffer MMU (drop, or PFC pause of the ingress), marks ECN when it leaves the
 * egress queue, and resumes the ingress when its counter has drained.
 *
 * Aggregated to an ns-3 Node; ports are RdmaNetDevices added with AddPort.
 */
class RdmaSwitch : public Object, public PortLoadView, public RdmaPortOwner
{
  public:
    /// Per-port counters.
    struct PortStats
    {
        uint64_t drops = 0;         ///< frames dropped on their way to this egress port
        uint64_t dropBytes = 0;     ///< bytes of those frames
        uint64_t pauseFrames = 0;   ///< PFC pause frames (incl. refreshes) sent upstream
        uint64_t pauseEpisodes = 0; ///< pauses that began an episode (no refreshes)
        /// Frames admitted from this ingress with a lossless class at or above Xoff (or in
        /// headroom) once counted: the pause frames a switch sending one per such frame
        /// would have sent (the HPCC and ConWeave simulators' rule), which this one does
        /// not send.
        uint64_t pausesPerPacketRule = 0;
        uint64_t resumeFrames = 0; ///< PFC resume frames sent upstream
        uint64_t ecnMarked = 0;    ///< frames CE-marked at this egress port
        /// Every drop counted at this port by reason (NO_ROUTE at the ingress, the
        /// admission reasons at the egress); LINK_DOWN drops are the devices' own.
        std::array<uint64_t, kDropReasons> dropsByReason{};
        /// CE marks at this egress port by reason.
        std::array<uint64_t, kMarkReasons> marksByReason{};
        /// The frames dropped here by reason, with their bytes (for ByteLedger).
        std::array<FrameTally, kDropReasons> droppedByReason{};
        /// Packet trimming: DATA frames refused at this egress and forwarded as their
        /// header instead (PacketTrimmer)
        uint64_t trims = 0;
        /// those trims by the reason the MMU refused the whole frame
        std::array<uint64_t, kDropReasons> trimsByReason{};
        /// what the trims cut off (frames: 0, they went on; for ByteLedger)
        FrameTally trimmedAway;
    };

    /// PFC events sent by a port: the (node, port, class) and kind.
    enum PfcEvent : uint8_t
    {
        PFC_PAUSE = 0,
        PFC_REFRESH = 1,
        PFC_RESUME = 2,
    };

    using PfcTracedCallback = void (*)(uint32_t port, uint8_t priority, uint8_t event);
    /// A drop: the frame, its ingress and egress port (equal for NO_ROUTE), the reason's
    /// name (DropReasonName).
    using DropTracedCallback = void (*)(Ptr<const Packet> p,
                                        uint32_t inPort,
                                        uint32_t outPort,
                                        const char* reason);
    /// A trim: the frame (as trimmed), its ingress and egress port, the name of the reason
    /// the whole frame was refused (DropReasonName).
    using TrimTracedCallback = void (*)(Ptr<const Packet> p,
                                        uint32_t inPort,
                                        uint32_t outPort,
                                        const char* reason);
    /// A CE mark: the frame (as marked), its egress port, the reason's name.
    using MarkTracedCallback = void (*)(Ptr<const Packet> p, uint32_t outPort, const char* reason);

    static TypeId GetTypeId();
    RdmaSwitch();

    /// Add a port; returns its index.
    uint32_t AddPort(Ptr<RdmaNetDevice> device);
    uint32_t GetNPorts() const;
    Ptr<RdmaNetDevice> GetPort(uint32_t port) const;
    /// Equal-cost egress ports towards node \p dst (node id).
    void SetRoute(uint32_t dst, const std::vector<uint32_t>& ports);
    const std::vector<uint32_t>& GetRoute(uint32_t dst) const;
    void SetLoadBalancer(Ptr<LoadBalancer> lb);
    Ptr<LoadBalancer> GetLoadBalancer() const;
    Ptr<SwitchMmu> GetMmu() const;
    const PortStats& GetPortStats(uint32_t port) const;
    /// Frames forwarded (admitted) so far.
    uint64_t GetForwardedFrames() const;
    uint32_t GetNodeId() const;
    /// T of PINT's utilisation estimate (PintMeter): the fabric's largest base RTT.
    void SetPintBaseRtt(Time t);
    /// Number the stream of PINT's random rounding; \return the streams used (1).
    int64_t AssignPintStream(int64_t stream);
    /// PINT's utilisation estimate of egress \p port (PintMeter).
    double GetPintUtilization(uint32_t port) const;

    /// The pauses this switch's ports have received (created, and connected, on the
    /// first call: call it once every port is added).
    Ptr<PfcPauseTracker> GetPauseTracker();
    /// Give the switch a PFC watchdog (installed on it by the caller), or none.
    void SetPfcWatchdog(Ptr<PfcWatchdog> watchdog);
    /// The switch's PFC watchdog, or nullptr.
    Ptr<PfcWatchdog> GetPfcWatchdog() const;
    /**
     * Drop (or stop dropping) every frame of class \p priority for egress \p port, as a
     * PFC watchdog's drop action does: on, the frames queued there are discarded now, and
     * later ones are dropped as they arrive (reason PFC_WATCHDOG).
     */
    void SetStormDrop(uint32_t port, uint8_t priority, bool on);
    /// Whether egress (\p outPort, \p priority) holds a frame that came in on \p inPort.
    bool HoldsFramesFrom(uint32_t outPort, uint8_t priority, uint32_t inPort) const;

    // PortLoadView, the load balancer's view of the ports
    uint64_t GetQueuedBytes(uint32_t port) const override;
    bool IsPaused(uint32_t port, uint8_t priority) const override;

  protected:
    void DoDispose() override;
    void NotifyNewAggregate() override;

  private:
    friend class FabricLayout; ///< reads its routes, ports and buffer (model/sim)

    // RdmaPortOwner: a frame arrived on inPort / leaves outPort.
    void FrameReceived(uint32_t inPort, RdmaNetDevice* dev, const Ptr<RdmaFrame>& f) override;
    /// Bit of the queue meta word: stamp an INT record at dequeue.
    static constexpr uint32_t kMetaInt = 1u << 31;

    void FrameDequeued(uint32_t outPort, RdmaFrame& f, uint8_t priority) override;
    /// Count, and trace, the drop of \p f on its way from \p inPort to \p outPort.
    void CountDrop(RdmaFrame& f, uint32_t inPort, uint32_t outPort, DropReason why);
    /**
     * Packet trimming (rdma-switch-trim.cc): \p f, refused by the MMU for \p why, is cut
     * to its header and admitted at the trimmer's class if it may be trimmed and the
     * header fits (counted and traced); if it may be trimmed and the header does not fit,
     * \p why becomes TRIM_HEADER_OVERFLOW.
     * \return whether \p f goes on (trimmed); false: the caller drops it for \p why
     */
    bool TrimRefused(RdmaFrame& f, uint32_t inPort, uint32_t outPort, DropReason& why);
    /// Give back the buffer of a frame leaving egress (\p outPort, \p priority), and
    /// resume the ingress if it has drained.
    void ReleaseBuffer(uint32_t inPort, uint32_t outPort, uint8_t priority, uint32_t bytes);
    void Pause(uint32_t inPort, uint8_t priority);
    void Refresh(uint32_t inPort, uint8_t priority);
    Time PauseDuration(uint32_t port) const;
    /// PintBits attribute (PintMeter's bit budget).
    void SetPintBits(uint32_t bits);
    uint32_t GetPintBits() const;

    Ptr<SwitchMmu> m_mmu;
    Ptr<PacketTrimmer> m_trimmer; ///< null: refused frames are dropped
    Ptr<LoadBalancer> m_lb;
    std::vector<Ptr<RdmaNetDevice>> m_ports;
    std::vector<PortStats> m_stats;
    RouteTable m_routes; ///< by destination node id
    /// Per ingress port: classes this switch has paused upstream.
    std::vector<uint8_t> m_pausedUpstream;
    std::vector<std::array<EventId, kRdmaNumPriorities>> m_refresh;
    /// Per egress port: classes whose frames a PFC watchdog drops (SetStormDrop).
    std::vector<uint8_t> m_stormDrop;
    uint32_t m_stormDropping; ///< (port, class) pairs dropping now
    Ptr<PfcPauseTracker> m_pauseTracker;
    Ptr<PfcWatchdog> m_watchdog;
    uint16_t m_pauseQuanta;
    PintMeter m_pint; ///< PINT's per-port utilisation and its code
    uint32_t m_nodeId;
    uint64_t m_forwarded;

    TracedCallback<uint32_t, uint8_t, uint8_t> m_pfcTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t, const char*> m_dropTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, const char*> m_markTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t, const char*> m_trimTrace;
};

} // namespace ns3

#endif /* RDMA_SWITCH_H */
